// SharePoint survives being killed mid-sync: the fake Microsoft 365 tenant (connectors/sharepoint/fake.ts) with a
// dozen more files in the Engineering library, beside its site pages and lists, stays up in this process while the
// real job worker syncs its sites in a child process that is SIGKILLed twice after some committed batches
// (server/sync/testing/crash-harness.ts). The index must end up holding exactly the tenant's files and pages with
// the readers Graph names (not its list items, whose readers Graph cannot name), and no page of a library's delta
// may have been read by all three workers, as it would be by a sync that started over.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  ENG_SITE,
  linkGrant,
  startGraphTenantFake,
  type GraphTenantFake,
} from '../../connectors/sharepoint/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_FILES = 12;
const KILLS = 2;

let tenant: GraphTenantFake | undefined;
beforeAll(() => {
  // The worker processes inherit them: the tenant's token endpoint accepts only this client.
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_SECRET', CLIENT_SECRET);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await tenant?.close();
});

it(`indexes exactly the tenant's files after ${KILLS} SIGKILLs mid-sync`, async () => {
  tenant = await startGraphTenantFake({ pageSize: 2 });
  for (let n = 0; n < MORE_FILES; n++) {
    const id = `minutes-${n}`;
    tenant.upsert('b!eng', {
      id,
      name: `Minutes ${n} documents.txt`,
      permissions: [linkGrant(id, 'organization')],
    });
  }
  const pages = [...tenant.siteContent().keys()].filter((externalId) => externalId.startsWith('page:'));
  const expected = [...tenant.files(['b!eng', 'b!hr']).keys(), ...pages].sort();

  const result = await crashSync({
    label: 'sharepoint-crash',
    appName: 'sharepoint',
    isOrg: true,
    ownerEmail: ADMIN_EMAIL,
    config: tenant.config,
    credentials: { email: ADMIN_EMAIL, marketplace: true },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  const readersOf = (id: string) => result.documents.find((row) => row.externalId === id)?.acl;
  expect(readersOf('b!hr:salaries')).toEqual(['user:ada@contoso.com']);
  expect(readersOf('b!eng:minutes-3')).toEqual(['org']);
  // Shared only with a site group: Graph cannot list its members, so the group holds nobody in Scout.
  expect(readersOf('b!eng:members')).toEqual([`group:sharepoint:${result.connectionId}:sitegroup:b!eng:5`]);
  // Site pages are readable by their site's readers, whom the permission sync names.
  expect(readersOf(`page:${ENG_SITE}:launch`)).toEqual([
    `group:sharepoint:${result.connectionId}:site:${ENG_SITE}`,
  ]);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // A page is read again only when a kill struck while it was in hand, and the next worker committed it.
  const deltas = tenant.graph.requests.filter((request) => request.path.endsWith('/root/delta'));
  expect(deltas.length).toBeGreaterThan(0);
  expect(mostRequestsOfOne(deltas, (request) => `${request.path}${request.search}`)).toBeLessThanOrEqual(2);
}, 300_000);
