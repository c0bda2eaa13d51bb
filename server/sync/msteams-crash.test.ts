// Teams survives being killed mid-sync: the fake Graph's teams, channels and chats (connectors/msteams/fake.ts) with
// a dozen more threads stay up in this process while the real job worker syncs Ada's connection in a child process
// that is SIGKILLed twice after some committed batches (server/sync/testing/crash-harness.ts). The index must end
// up holding exactly the threads and chats a full sync indexes, the member's own, and no page of a channel's
// messages may have been read by all three workers, as it would be by a sync that started over.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  CHANNELS,
  ME,
  SEEDED_CHATS,
  SEEDED_THREADS,
  TEAMS,
  post,
  startTeamsFake,
  type TeamsFake,
} from '../../connectors/msteams/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_THREADS = 12;
const KILLS = 2;

let fake: TeamsFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the threads and chats after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startTeamsFake({ pageSize: 2 });
  const expected = [...SEEDED_THREADS, ...SEEDED_CHATS];
  for (let n = 0; n < MORE_THREADS; n++) {
    const id = String(5000 + n);
    fake.post(CHANNELS.engGeneral, post(id, 2 + n, `Deploy ${n} went out`));
    expected.push(`${TEAMS.eng}/${CHANNELS.engGeneral}/${id}`);
  }
  expected.sort();

  const result = await crashSync({
    label: 'msteams-crash',
    appName: 'msteams',
    isOrg: false,
    ownerEmail: ME.email,
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
  expect(result.documents.every((row) => row.acl.join() === `user:${ME.email}`)).toBe(true);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // A page is read again only when a kill struck while it was in hand, and the next worker committed it.
  const listings = fake.server.requests.filter((request) =>
    /\/channels\/[^/]+\/messages$/.test(request.path),
  );
  expect(listings.length).toBeGreaterThan(0);
  expect(mostRequestsOfOne(listings, (request) => `${request.path}${request.search}`)).toBeLessThanOrEqual(2);
}, 300_000);
