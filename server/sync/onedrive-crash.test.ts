// OneDrive survives being killed mid-sync: every user's OneDrive in the fake Microsoft 365 tenant
// (connectors/sharepoint/fake.ts), Grace's with a dozen more files, stays up in this process while the real job
// worker syncs them in a child process that is SIGKILLed twice after some committed batches
// (server/sync/testing/crash-harness.ts). The index must end up holding exactly the OneDrives' files with the readers
// Graph names, and no page of a drive's delta may have been read by all three workers, as it would be by a sync
// that started over.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  startGraphTenantFake,
  userGrant,
  type GraphTenantFake,
} from '../../connectors/sharepoint/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_FILES = 12;
const KILLS = 2;

let tenant: GraphTenantFake | undefined;
beforeAll(() => {
  // The worker processes inherit them: the tenant's token endpoint accepts only this client.
  vi.stubEnv('SCOUT_OAUTH_ONEDRIVE_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_ONEDRIVE_CLIENT_SECRET', CLIENT_SECRET);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await tenant?.close();
});

it(`indexes exactly the OneDrives' files after ${KILLS} SIGKILLs mid-sync`, async () => {
  tenant = await startGraphTenantFake({ pageSize: 2 });
  for (let n = 0; n < MORE_FILES; n++) {
    const id = `draft-${n}`;
    tenant.upsert('b!grace', {
      id,
      name: `Draft ${n} documents.txt`,
      permissions: [userGrant(id, 'grace')],
    });
  }
  const expected = [...tenant.files(['b!grace', 'b!linus']).keys()].sort();

  const result = await crashSync({
    label: 'onedrive-crash',
    appName: 'onedrive',
    isOrg: true,
    ownerEmail: ADMIN_EMAIL,
    config: tenant.config,
    credentials: { email: ADMIN_EMAIL, marketplace: true },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  const readersOf = (id: string) => result.documents.find((row) => row.externalId === id)?.acl;
  expect(readersOf('b!grace:draft-5')).toEqual(['user:grace@contoso.com']);
  expect(readersOf('b!linus:todo')).toEqual(['user:grace@contoso.com', 'user:linus@contoso.com']);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // A page is read again only when a kill struck while it was in hand, and the next worker committed it.
  const deltas = tenant.graph.requests.filter((request) => request.path.endsWith('/root/delta'));
  expect(deltas.length).toBeGreaterThan(0);
  expect(mostRequestsOfOne(deltas, (request) => `${request.path}${request.search}`)).toBeLessThanOrEqual(2);
}, 300_000);
