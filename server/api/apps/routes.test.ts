import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppsResponse } from '../../../common/api/apps';
import {
  ONE_INDIVIDUAL_CONNECTION_APPS,
  getApp,
  supportsPersonal,
  type AppShortname,
} from '../../../common/catalogue';
import { ConnectionStatus } from '../../../common/connection-status';
import { apps } from '../../../common/strings';
import { CREDENTIAL_NAMES } from '../../../common/strings';
import { InvalidCredentialsError, type Connector } from '../../../connectors/sdk';
import { appConnections, documents, jobs, type Org, type User } from '../../db/schema';
import { runWorker } from '../../jobs/worker';
import { ADMIN_REQUIRED_MESSAGE, planRequiredMessage } from '../../policies/access';
import { HRIS_DISCONNECT_MESSAGE, NOT_CONNECTABLE_MESSAGE } from '../../policies/app-connections';
import { upsertDocuments } from '../../search';
import { decryptCredentials } from '../../sync/connections';
import { syncDedupeKey } from '../../sync/jobs';
import { registerConnector } from '../../sync/registry';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

/** A connector that accepts the API key 'good' and has nothing to sync: the gating rules are what is tested. */
function stubConnector(
  shortname: string,
  installPayload: Connector<unknown, unknown>['installPayload'] = 'apiKey',
): Connector<{ api_key: string }, Record<string, unknown>> {
  return {
    shortname: shortname as AppShortname,
    installPayload,
    credentialsSchema: z.object({ api_key: z.string() }),
    configSchema: z.looseObject({}),
    credentialFields: [{ key: 'api_key', label: 'API key', secret: true }],
    credentialName: CREDENTIAL_NAMES.apiKey,
    async validate(ctx) {
      if (ctx.credentials.api_key !== 'good') throw new InvalidCredentialsError();
      return { workspaceName: `${shortname} workspace`, email: 'account@vendor.test' };
    },
    async *fullSync() {},
    async *incrementalSync() {},
    async *listIds() {},
  };
}

const STUBBED = [
  'slack',
  'outlook',
  'onedrive',
  'gmail',
  'gcal',
  'gdrive',
  'bamboo_hr',
  'workday',
  'canva',
  'ashby',
  ...ONE_INDIVIDUAL_CONNECTION_APPS,
];
for (const name of new Set(STUBBED)) registerConnector(stubConnector(name));
/** An app the catalogue lets members connect, whose connector reads it org-wide only. */
const ORG_ONLY_CONNECTOR = 'jira';
registerConnector(stubConnector(ORG_ONLY_CONNECTOR, { org: 'apiKey' }));

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Plan = 'TEAM' | 'BUSINESS' | 'ENTERPRISE';
let orgCount = 0;

async function setup(plan: Plan) {
  const { db } = server.store;
  const org = await createOrg(db, { domain: `apps-${++orgCount}-${plan.toLowerCase()}.test`, plan });
  const admin = await createUser(db, org, { email: `admin@${org.domain}`, admin: true });
  const member = await createUser(db, org, { email: `member@${org.domain}` });
  const other = await createUser(db, org, { email: `other@${org.domain}` });
  const token = async (user: User) => (await loginTokensFor(server.ctx, user)).id_token;
  return {
    org,
    admin,
    member,
    other,
    adminToken: await token(admin),
    memberToken: await token(member),
    otherToken: await token(other),
  };
}

async function addConnection(org: Org, user: User, appName: string, isOrg: boolean, statusCode = 3) {
  const [row] = await server.store.db
    .insert(appConnections)
    .values({ orgId: org.id, userId: user.id, appName, isOrg, statusCode })
    .returning();
  return row!;
}

const install = (token: string, app: string, body: Record<string, unknown>) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/v1/app/install/${app}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

const good = (isOrg: boolean) => ({ isOrg, credentials: { api_key: 'good' } });

type Actor = 'admin' | 'member';
interface Case {
  name: string;
  plan: Plan;
  /** Connections already there: [app, isOrg, owner]. */
  existing?: [string, boolean, Actor | 'other'][];
  actor: Actor;
  app: string;
  isOrg: boolean;
  status: number;
  code?: string;
  message?: string;
}

const oneIndividualApps = [...ONE_INDIVIDUAL_CONNECTION_APPS].filter((name) =>
  supportsPersonal(getApp(name)!),
);

const CASES: Case[] = [
  {
    name: 'org connection by a member',
    plan: 'ENTERPRISE',
    actor: 'member',
    app: 'slack',
    isOrg: true,
    status: 403,
    code: 'ADMIN_REQUIRED',
    message: ADMIN_REQUIRED_MESSAGE,
  },
  {
    name: 'first org connection without org-wide apps',
    plan: 'TEAM',
    actor: 'admin',
    app: 'slack',
    isOrg: true,
    status: 200,
  },
  {
    name: 'second org connection without org-wide apps',
    plan: 'TEAM',
    existing: [['slack', true, 'admin']],
    actor: 'admin',
    app: 'slack',
    isOrg: true,
    status: 403,
    code: 'PLAN_REQUIRED',
    message: apps.ONE_ORG_CONNECTION,
  },
  {
    name: 'second org connection with org-wide apps',
    plan: 'BUSINESS',
    existing: [['slack', true, 'admin']],
    actor: 'admin',
    app: 'slack',
    isOrg: true,
    status: 200,
  },
  {
    name: 'second Outlook org connection',
    plan: 'ENTERPRISE',
    existing: [['outlook', true, 'admin']],
    actor: 'admin',
    app: 'outlook',
    isOrg: true,
    status: 409,
    message: apps.oneConnectionAllowed('Outlook'),
  },
  {
    name: 'second OneDrive org connection',
    plan: 'ENTERPRISE',
    existing: [['onedrive', true, 'admin']],
    actor: 'admin',
    app: 'onedrive',
    isOrg: true,
    status: 409,
    message: apps.oneConnectionAllowed('OneDrive'),
  },
  {
    name: 'first individual connection',
    plan: 'TEAM',
    actor: 'member',
    app: 'slack',
    isOrg: false,
    status: 200,
  },
  {
    name: 'second individual account without multiple accounts',
    plan: 'TEAM',
    existing: [['slack', false, 'member']],
    actor: 'member',
    app: 'slack',
    isOrg: false,
    status: 403,
    code: 'PLAN_REQUIRED',
    message: planRequiredMessage('multipleAppAccounts'),
  },
  {
    name: 'second individual account with multiple accounts',
    plan: 'BUSINESS',
    existing: [['slack', false, 'member']],
    actor: 'member',
    app: 'slack',
    isOrg: false,
    status: 200,
  },
  {
    name: "another member's account does not count",
    plan: 'TEAM',
    existing: [['slack', false, 'other']],
    actor: 'member',
    app: 'slack',
    isOrg: false,
    status: 200,
  },
  ...oneIndividualApps.map((name): Case => ({
    name: `second individual ${name} connection`,
    plan: 'ENTERPRISE',
    existing: [[name, false, 'member']],
    actor: 'member',
    app: name,
    isOrg: false,
    status: 409,
    message: apps.oneConnectionAllowed(getApp(name)!.displayName),
  })),
  {
    name: 'HRIS without the hris feature',
    plan: 'BUSINESS',
    actor: 'admin',
    app: 'bamboo_hr',
    isOrg: true,
    status: 403,
    code: 'PLAN_REQUIRED',
    message: planRequiredMessage('hris'),
  },
  { name: 'first HRIS app', plan: 'ENTERPRISE', actor: 'admin', app: 'bamboo_hr', isOrg: true, status: 200 },
  {
    name: 'second HRIS app',
    plan: 'ENTERPRISE',
    existing: [['bamboo_hr', true, 'admin']],
    actor: 'admin',
    app: 'workday',
    isOrg: true,
    status: 409,
    message: apps.ONE_HRIS_APP,
  },
  {
    name: 'custom-api without API access',
    plan: 'BUSINESS',
    actor: 'admin',
    app: 'custom-api',
    isOrg: true,
    status: 403,
    code: 'PLAN_REQUIRED',
    message: planRequiredMessage('apiAccess'),
  },
  {
    name: 'custom-api with API access but no connection name',
    plan: 'ENTERPRISE',
    actor: 'admin',
    app: 'custom-api',
    isOrg: true,
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'gworkspace: org Gmail blocks org Calendar',
    plan: 'ENTERPRISE',
    existing: [['gmail', true, 'admin']],
    actor: 'admin',
    app: 'gcal',
    isOrg: true,
    status: 409,
    message: apps.UNABLE_TO_ADD,
  },
  {
    name: 'gworkspace: org Gmail blocks org Drive',
    plan: 'ENTERPRISE',
    existing: [['gmail', true, 'admin']],
    actor: 'admin',
    app: 'gdrive',
    isOrg: true,
    status: 409,
    message: apps.UNABLE_TO_ADD,
  },
  {
    name: 'gworkspace: individual Calendar is still allowed',
    plan: 'ENTERPRISE',
    existing: [['gmail', true, 'admin']],
    actor: 'member',
    app: 'gcal',
    isOrg: false,
    status: 200,
  },
  {
    name: 'gworkspace: a disconnecting Gmail no longer blocks',
    plan: 'ENTERPRISE',
    existing: [['gmail', true, 'admin']],
    actor: 'admin',
    app: 'gmail',
    isOrg: true,
    status: 200,
  },
  {
    name: 'PersonalOnly app as an org connection',
    plan: 'ENTERPRISE',
    actor: 'admin',
    app: 'canva',
    isOrg: true,
    status: 400,
    message: apps.NO_ORG_CONNECTION,
  },
  {
    name: 'OrgOnly app as an individual connection',
    plan: 'ENTERPRISE',
    actor: 'member',
    app: 'ashby',
    isOrg: false,
    status: 400,
    message: apps.NO_INDIVIDUAL_CONNECTIONS,
  },
  {
    name: 'app without a connector',
    plan: 'ENTERPRISE',
    actor: 'admin',
    app: 'asana',
    isOrg: true,
    status: 400,
    code: 'NOT_IMPLEMENTED',
    message: NOT_CONNECTABLE_MESSAGE,
  },
  {
    name: 'connection kind the connector does not declare',
    plan: 'ENTERPRISE',
    actor: 'member',
    app: ORG_ONLY_CONNECTOR,
    isOrg: false,
    status: 400,
    code: 'NOT_IMPLEMENTED',
    message: NOT_CONNECTABLE_MESSAGE,
  },
];

describe('PUT /app/install/{app}: the gating rules of spec §6', () => {
  for (const c of CASES) {
    it(`${c.name} → ${c.status}`, async () => {
      const org = await setup(c.plan);
      const users = { admin: org.admin, member: org.member, other: org.other };
      for (const [app, isOrg, owner] of c.existing ?? [])
        await addConnection(org.org, users[owner], app, isOrg);
      if (c.name.includes('disconnecting')) {
        await server.store.db
          .update(appConnections)
          .set({ statusCode: ConnectionStatus.Disconnecting })
          .where(eq(appConnections.orgId, org.org.id));
      }
      const res = await install(c.actor === 'admin' ? org.adminToken : org.memberToken, c.app, good(c.isOrg));
      expect(res.statusCode, res.body).toBe(c.status);
      if (c.status !== 200) {
        const body = res.json<{ code: string; message: string }>();
        if (c.code) expect(body.code).toBe(c.code);
        if (c.message) expect(body.message).toBe(c.message);
        // Refused: nothing stored beyond what was there.
        const rows = await server.store.db
          .select()
          .from(appConnections)
          .where(eq(appConnections.orgId, org.org.id));
        expect(rows).toHaveLength(c.existing?.length ?? 0);
      }
    });
  }
});

describe('PUT /app/install/{app}', () => {
  it('validates, encrypts the credentials, stores a Connecting connection and queues its full sync', async () => {
    const { org, adminToken } = await setup('ENTERPRISE');
    const res = await install(adminToken, 'slack', {
      isOrg: true,
      credentials: { api_key: 'good' },
      options: { subdomain: 'acme' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { connection } = res.json<{ connection: AppsResponse['apps'][number]['connections'][number] }>();
    expect(connection).toMatchObject({
      appName: 'slack',
      org: org.domain,
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      workspaceName: 'slack workspace',
      email: 'account@vendor.test',
      progress: 0,
    });
    const [row] = await server.store.db
      .select()
      .from(appConnections)
      .where(eq(appConnections.id, connection.id));
    expect(row!.credentialsEncrypted).not.toContain('good');
    expect(decryptCredentials(row!)).toEqual({ api_key: 'good' });
    expect(row!.extra).toEqual({ config: { subdomain: 'acme' } });
    const queued = await server.store.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, syncDedupeKey(connection.id, 'full')));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'connector.sync',
      status: 'queued',
      payload: { connectionId: connection.id, mode: 'full' },
    });
  });

  it("answers 'Incorrect API key. Please try again.' for rejected credentials and stores nothing", async () => {
    const { org, memberToken } = await setup('ENTERPRISE');
    const res = await install(memberToken, 'slack', { isOrg: false, credentials: { api_key: 'bad' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: 'Incorrect API key. Please try again.',
    });
    expect(
      await server.store.db.select().from(appConnections).where(eq(appConnections.orgId, org.id)),
    ).toHaveLength(0);
  });

  it('refuses a blank API key before asking the vendor', async () => {
    const { memberToken } = await setup('ENTERPRISE');
    const res = await install(memberToken, 'slack', { isOrg: false, credentials: { api_key: '  ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
  });

  it("answers the website's failures with the spec's strings", async () => {
    const { adminToken } = await setup('ENTERPRISE');
    const invalid = await install(adminToken, 'website', {
      isOrg: true,
      options: { url: 'not a url', site_id: 's1' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<{ message: string }>().message).toBe(apps.VALID_URL);
    // A loopback address is refused by the crawler's address guard: the URL is what is wrong.
    const unreachable = await install(adminToken, 'website', {
      isOrg: true,
      options: { url: 'http://127.0.0.1:9/', site_id: 's1' },
    });
    expect(unreachable.statusCode).toBe(400);
    expect(unreachable.json()).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: apps.failedToInstallUrl('Website'),
    });
  });

  it('reconnects an existing connection in place', async () => {
    const { org, member, memberToken } = await setup('TEAM');
    const existing = await addConnection(org, member, 'slack', false, ConnectionStatus.ErrorReconnect);
    const res = await install(memberToken, 'slack', { ...good(false), appId: existing.id });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await server.store.db.select().from(appConnections).where(eq(appConnections.orgId, org.id));
    expect(row).toMatchObject({ id: existing.id, statusCode: ConnectionStatus.Connecting });
  });

  it('answers NOT_IMPLEMENTED for OAuth installs', async () => {
    const { adminToken } = await setup('ENTERPRISE');
    const res = await server.app.inject({
      method: 'PUT',
      url: '/api/v1/oauth/slack',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'NOT_IMPLEMENTED', message: NOT_CONNECTABLE_MESSAGE });
  });
});

describe('DELETE /app/disconnect_app_name/{app}', () => {
  const disconnect = (token: string, app: string, query = '') =>
    server.app.inject({
      method: 'DELETE',
      url: `/api/v1/app/disconnect_app_name/${app}${query}`,
      headers: { authorization: `Bearer ${token}` },
    });

  it("disconnects the member's own connection: Disconnecting at once, then documents and row removed", async () => {
    const { org, member, memberToken } = await setup('TEAM');
    const connection = await addConnection(org, member, 'slack', false);
    await upsertDocuments(server.store.db, org.id, [
      {
        source: 'slack',
        connectionId: connection.id,
        externalId: 'm1',
        title: 'Hello',
        body: 'hello world',
        acl: [`user:${member.email}`],
      },
    ]);
    const res = await disconnect(memberToken, 'slack');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ connection: { statusCode: number } }>().connection.statusCode).toBe(
      ConnectionStatus.Disconnecting,
    );
    const worker = runWorker(server.store, pino({ level: 'silent' }), { idleMs: 10 });
    try {
      for (let i = 0; i < 400; i++) {
        const rows = await server.store.db
          .select()
          .from(appConnections)
          .where(eq(appConnections.id, connection.id));
        if (rows.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await worker.stop();
    }
    expect(
      await server.store.db.select().from(appConnections).where(eq(appConnections.id, connection.id)),
    ).toHaveLength(0);
    expect(await server.store.db.select().from(documents).where(eq(documents.orgId, org.id))).toHaveLength(0);
  });

  it('lets only admins disconnect org connections, and nobody an HRIS org connection', async () => {
    const { org, admin, adminToken, memberToken } = await setup('ENTERPRISE');
    const slack = await addConnection(org, admin, 'slack', true);
    await addConnection(org, admin, 'bamboo_hr', true);
    const byMember = await disconnect(memberToken, 'slack', `?admin=true&appId=${slack.id}`);
    expect(byMember.statusCode).toBe(403);
    const hris = await disconnect(adminToken, 'bamboo_hr', '?admin=true');
    expect(hris.statusCode).toBe(400);
    expect(hris.json<{ message: string }>().message).toBe(HRIS_DISCONNECT_MESSAGE);
    const byAdmin = await disconnect(adminToken, 'slack', '?admin=true');
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it("does not reach another member's individual connection", async () => {
    const { org, other, memberToken, adminToken } = await setup('ENTERPRISE');
    const theirs = await addConnection(org, other, 'slack', false);
    expect((await disconnect(memberToken, 'slack', `?appId=${theirs.id}`)).statusCode).toBe(404);
    expect((await disconnect(adminToken, 'slack', `?appId=${theirs.id}`)).statusCode).toBe(404);
    expect((await disconnect(memberToken, 'slack')).statusCode).toBe(404);
  });
});

describe('GET /_fetchData/apps', () => {
  it("lists the catalogue with the viewer's own and the org's connections, never another member's", async () => {
    const { org, admin, member, other, memberToken } = await setup('ENTERPRISE');
    const orgSlack = await addConnection(org, admin, 'slack', true);
    const mine = await addConnection(org, member, 'slack', false, ConnectionStatus.Indexing);
    await addConnection(org, other, 'slack', false);
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/_fetchData/apps',
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<AppsResponse>();
    expect(body.apps.length).toBeGreaterThan(70);
    const slack = body.apps.find((entry) => entry.shortname === 'slack')!;
    expect(slack.available).toEqual({ org: true, individual: true });
    expect(body.apps.find((entry) => entry.shortname === 'asana')!.available).toEqual({
      org: false,
      individual: false,
    });
    expect(body.apps.find((entry) => entry.shortname === ORG_ONLY_CONNECTOR)!.available).toEqual({
      org: true,
      individual: false,
    });
    expect(slack.connections.map((c) => c.id).sort()).toEqual([orgSlack.id, mine.id].sort());
    expect(slack.connections.find((c) => c.id === orgSlack.id)).toMatchObject({
      org: org.domain,
      isOrg: true,
      progress: 100,
    });
    expect(slack.connections.find((c) => c.id === mine.id)).toMatchObject({
      org: '',
      isOrg: false,
      statusCode: 2,
      progress: 0,
    });
  });

  it("shows admins each connection's item count and last error, and members neither", async () => {
    const { org, admin, adminToken, memberToken } = await setup('ENTERPRISE');
    const orgSlack = await addConnection(org, admin, 'slack', true);
    await upsertDocuments(
      server.store.db,
      org.id,
      ['a', 'b', 'c'].map((externalId) => ({
        source: 'slack',
        connectionId: orgSlack.id,
        externalId,
        title: `Message ${externalId}`,
        body: 'hello',
        acl: ['org'],
      })),
    );
    const failedAt = new Date('2026-01-02T03:04:05.000Z');
    await server.store.db
      .update(appConnections)
      .set({ lastError: 'upstream 503', lastErrorAt: failedAt })
      .where(eq(appConnections.id, orgSlack.id));
    const slackOf = async (token: string) => {
      const res = await server.app.inject({
        method: 'GET',
        url: '/api/v1/_fetchData/apps',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AppsResponse>().apps.find((entry) => entry.shortname === 'slack')!.connections[0]!;
    };
    expect(await slackOf(adminToken)).toMatchObject({
      id: orgSlack.id,
      itemCount: 3,
      lastError: 'upstream 503',
      lastErrorAt: failedAt.toISOString(),
    });
    const seenByMember = await slackOf(memberToken);
    expect(seenByMember.id).toBe(orgSlack.id);
    expect(seenByMember).not.toHaveProperty('itemCount');
    expect(seenByMember).not.toHaveProperty('lastError');
  });
});
