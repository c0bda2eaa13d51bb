// The domain-wide delegation a Google Workspace admin authorises before an org connection: the dialog is answered
// the service account's client ID and the app's scopes, never its key, and only admins are.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { delegationResponseSchema } from '../../../common/api/oauth';
import { GMAIL_SCOPES } from '../../../connectors/gmail';
import { CALENDAR_SCOPES } from '../../../connectors/gcal';
import { DRIVE_ORG_SCOPES } from '../../../connectors/gdrive/org';
import { DIRECTORY_USERS_SCOPE } from '../../../connectors/google/members';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { listenTestServer, type ApiCall, type TestServer } from '../../testing/server';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = {
  type: 'service_account',
  client_email: 'scout@scout-project.iam.gserviceaccount.com',
  client_id: '104729384756102938475',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

let server: TestServer;
let call: ApiCall;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  ({ server, call } = await listenTestServer());
  const org = await createOrg(server.store.db, { domain: 'delegation.test' });
  const admin = await createUser(server.store.db, org, { email: 'admin@delegation.test', admin: true });
  const member = await createUser(server.store.db, org, { email: 'member@delegation.test' });
  adminToken = (await loginTokensFor(server.ctx, admin)).id_token;
  memberToken = (await loginTokensFor(server.ctx, member)).id_token;
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await server.close();
});

describe('GET /oauth/{app}/delegation', () => {
  it("answers the service account's client ID, the Directory scope and the app's own scopes", async () => {
    vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(KEY));
    const gmail = await call('GET', '/oauth/gmail/delegation', adminToken);
    expect(gmail.status).toBe(200);
    expect(delegationResponseSchema.parse(gmail.body)).toEqual({
      clientId: KEY.client_id,
      scopes: [DIRECTORY_USERS_SCOPE, ...GMAIL_SCOPES],
      adminConsoleUrl: 'https://admin.google.com/ac/owl/domainwidedelegation',
    });
    expect(JSON.stringify(gmail.body)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(gmail.body)).not.toContain(KEY.client_email);
    const gcal = await call('GET', '/oauth/gcal/delegation', adminToken);
    expect(gcal.body.scopes).toEqual([DIRECTORY_USERS_SCOPE, ...CALENDAR_SCOPES]);
    // Drive's org pass also reads group memberships for its ACLs, so the admin delegates the groups scope too.
    const gdrive = await call('GET', '/oauth/gdrive/delegation', adminToken);
    expect(gdrive.status).toBe(200);
    expect(gdrive.body.scopes).toEqual([...DRIVE_ORG_SCOPES]);
  });

  it('is for admins, for Google apps connected through delegation, on a server with a service account', async () => {
    vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(KEY));
    expect(await call('GET', '/oauth/gmail/delegation', memberToken)).toMatchObject({
      status: 403,
      body: { code: 'ADMIN_REQUIRED' },
    });
    expect(await call('GET', '/oauth/sharepoint/delegation', adminToken)).toMatchObject({
      status: 400,
      body: { code: 'NOT_IMPLEMENTED' },
    });
    expect((await call('GET', '/oauth/no-such-app/delegation', adminToken)).status).toBe(404);
    vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', '');
    expect(await call('GET', '/oauth/gmail/delegation', adminToken)).toMatchObject({
      status: 400,
      body: { code: 'NOT_IMPLEMENTED' },
    });
  });
});
