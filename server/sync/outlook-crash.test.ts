// Outlook survives being killed mid-sync: Ada's fixture mailbox on the fake Graph (connectors/outlook/fake.ts) with
// a fortnight more of mail stays up in this process while the real job worker syncs it in a child process that is
// SIGKILLed twice after some committed batches (server/sync/testing/crash-harness.ts). The index must end up
// holding exactly the mail a full sync indexes, the member's own, and no page of a folder's delta may have been
// read by all three workers, as it would be by a sync that started over.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  FOLDERS,
  OWNER,
  SEEDED_INDEXED,
  message,
  startOutlookFake,
  type OutlookFake,
} from '../../connectors/outlook/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_MESSAGES = 14;
const KILLS = 2;

let fake: OutlookFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the mailbox after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startOutlookFake({ pageSize: 2 });
  const expected = [...SEEDED_INDEXED];
  for (let n = 0; n < MORE_MESSAGES; n++) {
    const id = `m-crash-${String(n).padStart(2, '0')}`;
    fake.put(message(id, FOLDERS.inbox, 10 + n, `Incident report ${n}`));
    expected.push(id);
  }
  expected.sort();

  const result = await crashSync({
    label: 'outlook-crash',
    appName: 'outlook',
    isOrg: false,
    ownerEmail: OWNER.email,
    config: { baseUrl: fake.graphUrl },
    credentials: {
      access_token: fake.identity.accessToken,
      refresh_token: fake.identity.refreshToken,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  expect(result.documents.every((row) => row.acl.join() === `user:${OWNER.email}`)).toBe(true);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // A page is read again only when a kill struck while it was in hand, and the next worker committed it.
  const deltas = fake.server.requests.filter((request) => request.path.endsWith('/messages/delta'));
  expect(deltas.length).toBeGreaterThan(0);
  expect(mostRequestsOfOne(deltas, (request) => `${request.path}${request.search}`)).toBeLessThanOrEqual(2);
}, 300_000);
