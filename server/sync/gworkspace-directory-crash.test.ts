// The Google Workspace directory survives being killed mid-sync: Acme's directory (connectors/gworkspace-directory/
// fake.ts) with more people stays up in this process while the real job worker lists it in a child process that is
// SIGKILLed twice after some committed batches (server/sync/testing/crash-harness.ts). The index must end up
// holding exactly the people the directory lists, open to the whole org, and no page of the listing may have been
// read by all three workers, as it would be by a sync that started over.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  seedAcmeDirectory,
  startDirectoryFake,
  type WorkspaceDirectoryFake,
} from '../../connectors/gworkspace-directory/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_PEOPLE = 14;
const KILLS = 2;

let fake: WorkspaceDirectoryFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the directory's listed people after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startDirectoryFake({ pageSize: 2 });
  seedAcmeDirectory(fake);
  // The suspended and the hidden seeded accounts are not listed.
  const expected = ['u-ada', 'u-grace', 'u-linus'];
  for (let n = 0; n < MORE_PEOPLE; n++) {
    const id = `u-new-${String(n).padStart(2, '0')}`;
    fake.putUser({
      id,
      primaryEmail: `new${String(n).padStart(2, '0')}@acme.test`,
      name: { fullName: `New Hire ${n}` },
      creationTime: '2025-03-01T09:00:00.000Z',
      relations: [{ type: 'manager', value: 'ada@acme.test' }],
    });
    expected.push(id);
  }
  expected.sort();

  const result = await crashSync({
    label: 'directory-crash',
    appName: 'gworkspace-directory',
    isOrg: true,
    ownerEmail: 'admin@acme.test',
    config: { baseUrl: fake.server.url },
    credentials: {
      access_token: fake.token,
      refresh_token: 'refresh-1',
      expires_at: '2099-01-01T00:00:00.000Z',
    },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  expect(result.documents.every((row) => row.acl.join() === 'org')).toBe(true);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // A page is read again only when a kill struck while it was in hand, and the next worker committed it.
  const listings = fake.server.requests.filter(
    (request) => request.path === '/admin/directory/v1/users' && request.search.includes('orderBy'),
  );
  expect(listings.length).toBeGreaterThan(0);
  expect(mostRequestsOfOne(listings, (request) => request.search)).toBeLessThanOrEqual(2);
}, 300_000);
