// SCOUT_FAKE_VENDORS=1: a person trying Scout connects the vendors' apps against fakes on 127.0.0.1 instead of the
// vendors. Each app's fake (the one its tests use) starts on a random port, seeded with a small workspace whose
// people are the demo workspace's members, some items readable by everyone and some by one member; OAuth apps get
// a fake authorization server with an Allow page (connectors/sdk/fake-oauth.ts).
//
// The addresses are injected where the tests inject them, so there is no second way to configure a connector: the
// app's connector is registered again (server/sync/registry.ts, as the sync tests do) with its OAuth settings
// pointing at the fake and its config schema filling in the fake's `baseUrl` (and `loginUrl`), the SDK's
// convention; the OAuth client is the one the fake accepts, in the environment variables every OAuth app reads. The
// install route, the OAuth flow, token refreshes and the sync engine all read the connector from the registry, so
// all of them reach the fake and none of them knows dev mode exists. It lives in this process: run the worker in
// it (`scout serve`, the default), not apart.
import { z } from 'zod';
import type { Connector } from '../../connectors/sdk';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from '../../connectors/sdk/fake-oauth';
import { startCalendarFake } from '../../connectors/gcal/fake';
import { startDriveFake, seedAcmeDrive } from '../../connectors/gdrive/fake';
import { startGmailFake } from '../../connectors/gmail/fake';
import { seedAcmeDirectory, startDirectoryFake } from '../../connectors/gworkspace-directory/fake';
import { FAKE_CLIENT } from '../../connectors/microsoft/fake-identity';
import { startTeamsFake } from '../../connectors/msteams/fake';
import { blocks, startNotionFake } from '../../connectors/notion/fake';
import {
  FOLDERS as OUTLOOK_FOLDERS,
  message as outlookMessage,
  startOutlookFake,
} from '../../connectors/outlook/fake';
import {
  startGraphTenantFake,
  linkGrant,
  userGrant,
  CLIENT_ID,
  CLIENT_SECRET,
} from '../../connectors/sharepoint/fake';
import { startSlackFake } from '../../connectors/slack/fake';
import { DEMO_DOMAIN, DEMO_PEOPLE } from '../demo/seed';
import type { Logger } from '../logger';
import { oauthClientVariables } from '../sync/oauth-tokens';
import { getConnector, registerConnector } from '../sync/registry';

export interface FakeVendors {
  /** Stops the fakes and gives the apps their vendors back. */
  close(): Promise<void>;
}

interface DevApp {
  readonly shortname: string;
  /** The connection settings that reach the fake (`baseUrl`, `loginUrl`). */
  readonly config: Readonly<Record<string, string>>;
  /** The OAuth (or Azure app) client the fake accepts. */
  readonly client: { readonly id: string; readonly secret: string };
  /** For apps connected through the OAuth popup. */
  readonly authorization?: FakeAuthorizationServer;
  close(): Promise<void>;
}

const HOUR_S = 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo members by the local part of their address: 'admin', 'ben', 'chloe', 'dev'. */
const people = DEMO_PEOPLE.map((person) => ({
  local: person.email.split('@')[0] ?? '',
  email: person.email,
  name: `${person.firstName} ${person.lastName}`,
  admin: person.admin ?? false,
}));
const demoPerson = (index: number) => {
  const person = people[index];
  if (!person) throw new Error(`the demo workspace has no member ${index}`);
  return person;
};
/** The admin who connects org-wide apps, the member some items are private to, and a colleague who may not read them. */
const [admin, member, colleague] = [demoPerson(0), demoPerson(1), demoPerson(2)];

async function slack(): Promise<DevApp> {
  const fake = await startSlackFake();
  const ids = new Map(people.map((person) => [person.local, `U${person.local.toUpperCase()}`]));
  const id = (local: string) => ids.get(local) ?? '';
  for (const person of people)
    fake.addUser({
      id: id(person.local),
      name: person.local,
      real_name: person.name,
      is_admin: person.admin,
      profile: { email: person.email, real_name: person.name },
    });
  fake.addUser({ id: 'UBOT', name: 'scout', is_bot: true, profile: { real_name: 'Scout' } });
  const everyone = [...ids.values(), 'UBOT'];
  fake.addChannel(
    { id: 'C0GENERAL', name: 'general', is_channel: true, is_private: false, is_member: true },
    everyone,
  );
  fake.post('C0GENERAL', {
    user: id(admin.local),
    text: 'Welcome to Acme! The Orion launch review is on Thursday at 3pm in the big room.',
    ageSeconds: 3 * 24 * HOUR_S,
  });
  const question = fake.post('C0GENERAL', {
    user: id(colleague.local),
    text: 'Where do we keep the Orion launch checklist?',
    ageSeconds: 5 * HOUR_S,
  });
  fake.reply('C0GENERAL', question.ts ?? '', {
    user: id(member.local),
    text: 'Pinned in this channel, next to the release calendar.',
    ageSeconds: 4 * HOUR_S,
  });
  // A private channel of one member (and the app): nobody else may find what is said in it.
  fake.addChannel(
    {
      id: 'G0SCRATCH',
      name: `${member.local}-scratchpad`,
      is_group: true,
      is_private: true,
      is_member: true,
    },
    [id(member.local), 'UBOT'],
  );
  fake.post('G0SCRATCH', {
    user: id(member.local),
    text: 'Draft Orion budget: 120k for the launch campaign, keep it to myself until finance signs off.',
    ageSeconds: 2 * HOUR_S,
  });
  const client = { id: 'scout-dev-slack', secret: 'scout-dev-slack-secret' };
  const authorization = await startFakeAuthorizationServer({
    vendor: 'Slack',
    client,
    // oauth.v2.access's answer: the bot token, and who installed the app.
    issue: () => ({
      ok: true,
      access_token: fake.token,
      token_type: 'bot',
      scope:
        'channels:read,channels:history,groups:read,groups:history,files:read,users:read,users:read.email',
      bot_user_id: 'UBOT',
      app_id: 'A0SCOUT',
      team: { id: 'T0ACME', name: 'Acme' },
      authed_user: { id: id(admin.local) },
    }),
    refreshUrl: `${fake.apiUrl}oauth.v2.access`,
  });
  return {
    shortname: 'slack',
    config: { baseUrl: fake.apiUrl },
    client,
    authorization,
    close: async () => {
      await Promise.all([fake.close(), authorization.close()]);
    },
  };
}

async function gmail(): Promise<DevApp> {
  // One mailbox, a member's: whoever connects Gmail reads it, and only they find it.
  const fake = await startGmailFake({ mailbox: member.email, pageSize: 50 });
  fake.addMessage({
    id: 'dev-m1',
    threadId: 'dev-t-contract',
    from: `${colleague.name} <${colleague.email}>`,
    to: member.email,
    subject: 'Orion supplier contract',
    date: new Date(Date.now() - 2 * DAY_MS),
    text: 'The signed supplier contract for Orion is attached; the penalty clause starts in March.',
  });
  fake.addMessage({
    id: 'dev-m2',
    threadId: 'dev-t-contract',
    from: `${member.name} <${member.email}>`,
    to: colleague.email,
    subject: 'Re: Orion supplier contract',
    date: new Date(Date.now() - DAY_MS),
    text: 'Thanks, I will check the penalty clause with legal.',
  });
  const client = { id: 'scout-dev-google', secret: 'scout-dev-google-secret' };
  const authorization = await startFakeAuthorizationServer({
    vendor: 'Google',
    client,
    issue: () => ({
      access_token: fake.accessToken(),
      refresh_token: fake.refreshToken,
      expires_in: 3599,
      token_type: 'Bearer',
      scope: 'https://www.googleapis.com/auth/gmail.readonly',
    }),
    refreshUrl: `${fake.server.url}/token`,
  });
  return {
    shortname: 'gmail',
    config: { baseUrl: fake.server.url },
    client,
    authorization,
    close: async () => {
      await Promise.all([fake.close(), authorization.close()]);
    },
  };
}

/** A Google OAuth app on its fake: the Allow page issues the fake's tokens, refreshes go to its token endpoint. */
async function googleApp(
  shortname: string,
  baseUrl: string,
  tokens: () => Record<string, unknown>,
  refreshUrl: string | undefined,
  close: () => Promise<void>,
): Promise<DevApp> {
  const client = { id: `scout-dev-${shortname}`, secret: `scout-dev-${shortname}-secret` };
  const authorization = await startFakeAuthorizationServer({
    vendor: 'Google',
    client,
    issue: () => ({ token_type: 'Bearer', ...tokens() }),
    refreshUrl,
  });
  return {
    shortname,
    config: { baseUrl },
    client,
    authorization,
    close: async () => {
      await Promise.all([close(), authorization.close()]);
    },
  };
}

/** Acme's Drive at the demo domain: a file the whole domain reads, and one shared with one member. */
async function gdrive(): Promise<DevApp> {
  const fake = await startDriveFake({ user: admin.email });
  seedAcmeDrive(fake);
  fake.addFile({
    id: 'dev-holidays',
    name: 'Acme holiday calendar',
    mimeType: 'application/vnd.google-apps.document',
    parent: 'root',
    content: 'Office closed on 24 December and 1 January; the summer shutdown is the first week of August.',
    permissions: [{ type: 'domain', role: 'reader', domain: DEMO_DOMAIN, allowFileDiscovery: true }],
  });
  fake.addFile({
    id: 'dev-one-on-one',
    name: `${member.name} 1:1 notes`,
    mimeType: 'application/vnd.google-apps.document',
    parent: 'root',
    content: 'Career goals: lead the Orion launch; ask about the conference budget.',
    permissions: [{ type: 'user', role: 'writer', emailAddress: member.email }],
  });
  return googleApp(
    'gdrive',
    fake.server.url,
    () => ({ access_token: fake.token, scope: 'https://www.googleapis.com/auth/drive.readonly' }),
    undefined,
    () => fake.close(),
  );
}

/** The demo members in Acme's directory, beside the fixture's people and groups. */
async function gworkspaceDirectory(): Promise<DevApp> {
  const fake = await startDirectoryFake();
  seedAcmeDirectory(fake);
  for (const person of people)
    fake.putUser({
      id: `dev-${person.local}`,
      primaryEmail: person.email,
      name: { fullName: person.name },
      creationTime: '2024-02-01T09:00:00.000Z',
    });
  fake.addGroup(`everyone@${DEMO_DOMAIN}`, [
    ...people.map((person) => ({ email: person.email, type: 'USER', status: 'ACTIVE' })),
  ]);
  return googleApp(
    'gworkspace-directory',
    fake.server.url,
    () => ({
      access_token: fake.token,
      scope: 'https://www.googleapis.com/auth/admin.directory.user.readonly',
    }),
    undefined,
    () => fake.close(),
  );
}

/** A member's calendar, with a meeting a colleague attends. */
async function gcal(): Promise<DevApp> {
  const fake = await startCalendarFake({ member: member.email, pageSize: 50 });
  const start = new Date(Date.now() + 2 * DAY_MS);
  fake.putEvent(member.email, {
    id: 'dev-orion-review',
    summary: 'Orion launch review',
    description: 'Walk through the launch checklist and the open risks.',
    start: { dateTime: start.toISOString() },
    end: { dateTime: new Date(start.getTime() + HOUR_S * 1000).toISOString() },
    attendees: [
      { email: member.email, responseStatus: 'accepted' },
      { email: colleague.email, responseStatus: 'needsAction' },
    ],
  });
  return googleApp(
    'gcal',
    fake.server.url,
    () => ({
      access_token: fake.accessToken(),
      refresh_token: fake.refreshToken,
      expires_in: 3599,
      scope: 'https://www.googleapis.com/auth/calendar.readonly',
    }),
    `${fake.server.url}/token`,
    () => fake.close(),
  );
}

/** Notion's workspace with the demo members in it (one as a guest, who never reads its pages). */
async function notion(): Promise<DevApp> {
  const fake = await startNotionFake({
    clientId: 'scout-dev-notion',
    clientSecret: 'scout-dev-notion-secret',
  });
  for (const person of people)
    fake.users.push({
      key: person.local,
      name: person.name,
      email: person.email,
      role: person === people.at(-1) ? 'guest' : 'member',
    });
  fake.upsertPage({
    key: 'dev-onboarding',
    title: 'Acme onboarding guide',
    parent: 'workspace',
    blocks: [blocks.paragraph('Your first week: meet your buddy, set up your laptop and read the handbook.')],
  });
  fake.share('dev-onboarding');
  const client = { id: fake.clientId, secret: fake.clientSecret };
  const authorization = await startFakeAuthorizationServer({
    vendor: 'Notion',
    client,
    issue: () => ({
      access_token: fake.token,
      token_type: 'bearer',
      bot_id: 'dev-bot',
      workspace_name: 'Acme',
      workspace_id: 'dev-workspace',
      workspace_icon: null,
      owner: { type: 'user', user: { object: 'user', id: 'dev-admin', person: { email: admin.email } } },
      duplicated_template_id: null,
    }),
  });
  return {
    shortname: 'notion',
    config: { baseUrl: fake.url },
    client,
    authorization,
    close: async () => {
      await Promise.all([fake.close(), authorization.close()]);
    },
  };
}

/**
 * A Microsoft OAuth app on its fake, whose fixture people are at contoso.com: connected individually, its mailbox
 * or chats are the connecting member's alone, as any individual connection's are.
 */
async function microsoftApp(
  shortname: string,
  fake: {
    graphUrl: string;
    server: { url: string };
    identity: { accessToken: string; refreshToken: string };
  },
  close: () => Promise<void>,
): Promise<DevApp> {
  const client = { id: FAKE_CLIENT.id, secret: FAKE_CLIENT.secret };
  const authorization = await startFakeAuthorizationServer({
    vendor: 'Microsoft',
    client,
    issue: () => ({
      token_type: 'Bearer',
      expires_in: 3600,
      access_token: fake.identity.accessToken,
      refresh_token: fake.identity.refreshToken,
    }),
    refreshUrl: `${fake.server.url}/organizations/oauth2/v2.0/token`,
  });
  return {
    shortname,
    // The login address serves an org connection's client-credentials grant (the tenant's admin consent).
    config: { baseUrl: fake.graphUrl, loginUrl: fake.server.url },
    client,
    authorization,
    close: async () => {
      await Promise.all([close(), authorization.close()]);
    },
  };
}

/** Connected org-wide, the tenant at the demo domain holds a member's mailbox too, readable by that member alone. */
async function outlook(): Promise<DevApp> {
  const fake = await startOutlookFake({ pageSize: 50, tenant: DEMO_DOMAIN });
  fake.putUser(
    {
      id: `dev-${member.local}`,
      displayName: member.name,
      mail: member.email,
      userPrincipalName: member.email,
      accountEnabled: true,
    },
    [
      outlookMessage('dev-orion-invoice', OUTLOOK_FOLDERS.inbox, 1, 'Orion supplier invoice', {
        from: { emailAddress: { name: colleague.name, address: colleague.email } },
        toRecipients: [{ emailAddress: { name: member.name, address: member.email } }],
      }),
    ],
  );
  return microsoftApp('outlook', fake, () => fake.close());
}

async function msteams(): Promise<DevApp> {
  // The tenant at the demo domain, so an admin of the demo workspace can connect Teams org-wide too.
  const fake = await startTeamsFake({ pageSize: 50, tenant: DEMO_DOMAIN });
  return microsoftApp('msteams', fake, () => fake.close());
}

/** One Microsoft 365 tenant at the demo domain serves SharePoint and OneDrive, as a real tenant does. */
async function microsoftTenant(): Promise<DevApp[]> {
  const fake = await startGraphTenantFake({
    pageSize: 50,
    tenant: DEMO_DOMAIN,
    people: people.map((person) => person.local),
  });
  fake.upsert('b!eng', {
    id: 'dev-travel',
    name: 'Acme travel policy.docx',
    permissions: [linkGrant('dev-travel', 'organization')],
  });
  fake.upsert('b!hr', {
    id: 'dev-review',
    name: `${member.name} salary review.xlsx`,
    permissions: [userGrant('dev-review', member.local)],
  });
  // The member's own OneDrive, which they connect for themselves.
  fake.upsert(`b!${member.local}`, {
    id: 'dev-speech',
    name: 'Orion keynote speaker notes.docx',
    permissions: [userGrant('dev-speech', member.local)],
  });
  const client = { id: CLIENT_ID, secret: CLIENT_SECRET };
  const app = (shortname: string): DevApp => ({
    shortname,
    config: fake.config,
    client,
    close: () => fake.close(),
  });
  // A member connecting SharePoint or OneDrive for themselves signs in as the demo member.
  const authorization = await startFakeAuthorizationServer({
    vendor: 'Microsoft',
    client,
    issue: () => ({ token_type: 'Bearer', expires_in: 3600, access_token: fake.memberToken(member.local) }),
  });
  return [
    {
      ...app('sharepoint'),
      authorization,
      close: async () => {
        await Promise.all([fake.close(), authorization.close()]);
      },
    },
    { ...app('onedrive'), authorization, close: () => Promise.resolve() },
  ];
}

/** The connector of `app.shortname`, reaching the fake whatever a connection stored. */
function pointedAtFake<Credentials, Config>(
  connector: Connector<Credentials, Config>,
  app: DevApp,
): Connector<Credentials, Config> {
  const { authorization } = app;
  return {
    ...connector,
    configSchema: z.preprocess(
      (stored) => ({ ...(typeof stored === 'object' && stored !== null ? stored : {}), ...app.config }),
      connector.configSchema,
    ),
    ...(connector.oauth && authorization
      ? {
          oauth: {
            ...connector.oauth,
            authorizeUrl: authorization.authorizeUrl,
            tokenUrl: authorization.tokenUrl,
          },
        }
      : {}),
  };
}

/** Starts every fake, points its app at it and logs one line naming them. */
export async function startFakeVendors(
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FakeVendors> {
  const apps = (
    await Promise.all([
      slack(),
      notion(),
      gdrive(),
      gworkspaceDirectory(),
      gmail(),
      gcal(),
      outlook(),
      msteams(),
      microsoftTenant(),
    ])
  ).flat();
  // What dev mode replaces, put back on close, so a process that stops it (a test) has its vendors again.
  const restores: (() => void)[] = [];
  for (const app of apps) {
    const connector = getConnector(app.shortname);
    if (!connector) throw new Error(`dev mode: ${app.shortname} has no connector`);
    registerConnector(pointedAtFake(connector, app));
    const variables = oauthClientVariables(app.shortname);
    const previous = { id: env[variables.id], secret: env[variables.secret] };
    env[variables.id] = app.client.id;
    env[variables.secret] = app.client.secret;
    restores.push(() => {
      registerConnector(connector);
      for (const key of ['id', 'secret'] as const) {
        if (previous[key] === undefined) delete env[variables[key]];
        else env[variables[key]] = previous[key];
      }
    });
  }
  const addresses = Object.fromEntries(
    apps.map((app) => [app.shortname, app.config.baseUrl ?? app.authorization?.authorizeUrl ?? '']),
  );
  logger.warn(
    { fakes: addresses },
    `SCOUT_FAKE_VENDORS=1: ${apps.map((app) => app.shortname).join(', ')} connect to fakes on 127.0.0.1, not to their vendors`,
  );
  return {
    async close() {
      for (const restore of restores) restore();
      await Promise.all(apps.map((app) => app.close()));
    },
  };
}
