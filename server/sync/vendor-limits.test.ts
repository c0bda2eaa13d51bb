// Apps that a vendor meters together share one request limiter per org: SharePoint and OneDrive are one SharePoint
// Online budget to Microsoft, so a throttled SharePoint sync holds the org's OneDrive sync back, while Outlook, which
// Microsoft meters apart, carries on; and Outlook is metered per mailbox, so one member's throttled mailbox holds no
// colleague's back. The real engine and store against the fake tenant and mailbox on 127.0.0.1.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createOutlookConnector } from '../../connectors/outlook';
import { startOutlookFake, type OutlookFake } from '../../connectors/outlook/fake';
import { FAKE_CLIENT } from '../../connectors/microsoft/fake-identity';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  TENANT,
  startGraphTenantFake,
  type GraphTenantFake,
} from '../../connectors/sharepoint/fake';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { registerConnector } from './registry';
import { insertConnection, syncNow } from './testing/connections';

let server: TestServer;
let tenant: GraphTenantFake;
let mailbox: OutlookFake;
const connections: Record<'sharepoint' | 'onedrive' | 'outlook' | 'colleaguesOutlook', string> = {
  sharepoint: '',
  onedrive: '',
  outlook: '',
  colleaguesOutlook: '',
};

beforeAll(async () => {
  for (const app of ['SHAREPOINT', 'ONEDRIVE']) {
    vi.stubEnv(`SCOUT_OAUTH_${app}_CLIENT_ID`, CLIENT_ID);
    vi.stubEnv(`SCOUT_OAUTH_${app}_CLIENT_SECRET`, CLIENT_SECRET);
  }
  mailbox = await startOutlookFake();
  registerConnector(createOutlookConnector({ loginUrl: mailbox.server.url }));
  vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_ID', FAKE_CLIENT.id);
  vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_SECRET', FAKE_CLIENT.secret);
  server = await createTestServer();
  tenant = await startGraphTenantFake();
  const { db } = server.store;
  const org = await createOrg(db, { domain: TENANT });
  const admin = await createUser(db, org, { email: ADMIN_EMAIL, admin: true });
  for (const appName of ['sharepoint', 'onedrive'] as const)
    connections[appName] = await insertConnection(db, {
      orgId: org.id,
      userId: admin.id,
      appName,
      isOrg: true,
      config: tenant.config,
      credentials: { email: ADMIN_EMAIL, marketplace: true },
    });
  const colleague = await createUser(db, org, { email: `colleague@${TENANT}` });
  for (const [key, owner] of [
    ['outlook', admin],
    ['colleaguesOutlook', colleague],
  ] as const)
    connections[key] = await insertConnection(db, {
      orgId: org.id,
      userId: owner.id,
      appName: 'outlook',
      isOrg: false,
      config: { baseUrl: mailbox.graphUrl },
      credentials: {
        access_token: mailbox.identity.accessToken,
        refresh_token: mailbox.identity.refreshToken,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await tenant?.close();
  await mailbox?.close();
  await server?.close();
});

it('holds OneDrive back while SharePoint is throttled, and leaves Outlook to its own allowance', async () => {
  tenant.graph.failNext(1, { kind: 'rateLimit', retryAfter: 3600 });
  const throttled = await syncNow(server.store.db, connections.sharepoint, 'full');
  expect(throttled.kind).toBe('later');
  expect((throttled as { at: Date }).at.getTime()).toBeGreaterThan(Date.now() + 3_500_000);

  tenant.graph.clearLog();
  const held = await syncNow(server.store.db, connections.onedrive, 'full');
  expect(held.kind).toBe('later');
  expect(tenant.graph.requests).toHaveLength(0);

  mailbox.server.clearLog();
  expect(await syncNow(server.store.db, connections.outlook, 'full')).toMatchObject({ kind: 'complete' });
  expect(mailbox.server.requests.length).toBeGreaterThan(0);
});

it("meters each member's mailbox apart: one member's throttled Outlook sync holds no colleague's back", async () => {
  mailbox.server.failNext(1, { kind: 'rateLimit', retryAfter: 3600 });
  const throttled = await syncNow(server.store.db, connections.outlook, 'full');
  expect(throttled.kind).toBe('later');

  mailbox.server.clearLog();
  expect(await syncNow(server.store.db, connections.colleaguesOutlook, 'full')).toMatchObject({
    kind: 'complete',
  });
  expect(mailbox.server.requests.length).toBeGreaterThan(0);
});
