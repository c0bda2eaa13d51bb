// Microsoft 365's rows: a member's Outlook mail and Teams (individual connections, the delegated token the fake's
// identity platform issues) and a tenant's SharePoint sites and OneDrives (org connections, app-only tokens of
// Scout's Azure app, whose client the server reads from its environment as the crash tests set it).
import { changedText, connectorRow, paragraphsOf, textPieces } from '../connector-bench';
import { CHANNELS, CHATS, PEOPLE, post, startTeamsFake, type TeamsFake } from '../../connectors/msteams/fake';
import { teamsConnector } from '../../connectors/msteams';
import { onedriveConnector } from '../../connectors/onedrive';
import { outlookConnector } from '../../connectors/outlook';
import {
  FOLDERS,
  message,
  seedMessages,
  startOutlookFake,
  type OutlookFake,
} from '../../connectors/outlook/fake';
import { sharepointConnector } from '../../connectors/sharepoint';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  groupGrant,
  linkGrant,
  seedFiles,
  startGraphTenantFake,
  userGrant,
  type FileSpec,
  type GraphTenantFake,
} from '../../connectors/sharepoint/fake';
import type { FakeIdentity } from '../../connectors/microsoft/fake-identity';

const DAYS = 2 * 365;

/** A delegated token good for an hour, as the OAuth flow stores it. */
const delegatedCredentials = (identity: FakeIdentity) => ({
  access_token: identity.accessToken,
  refresh_token: identity.refreshToken,
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
});

const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
const html = (text: string) =>
  paragraphsOf(text)
    .map((paragraph) => `<p>${escaped(paragraph)}</p>`)
    .join('');

interface Mailbox {
  outlook: OutlookFake;
  bodies: string[];
}

/** Mail is filed in these in turn; the others (drafts, junk, deleted) are not indexed. */
const MAIL_FOLDERS = [FOLDERS.inbox, FOLDERS.inbox, FOLDERS.projects, FOLDERS.archive, FOLDERS.sentitems];

export const outlookRow = connectorRow({
  connector: outlookConnector,
  isOrg: false,
  async startWorkspace(items) {
    const outlook = await startOutlookFake();
    for (const seeded of seedMessages()) outlook.remove(seeded.id);
    const bodies: string[] = [];
    let k = 0;
    for (const { title, body } of textPieces(items, { min: 200, max: 4_000 })) {
      outlook.put(
        message(
          `mail-${k}`,
          MAIL_FOLDERS[k % MAIL_FOLDERS.length]!,
          0.05 + (k * DAYS) / items,
          title.slice(0, 120),
          {
            body: { contentType: 'html', content: html(body) },
          },
        ),
      );
      bodies.push(body);
      k += 1;
    }
    return {
      fake: { outlook, bodies },
      config: { baseUrl: outlook.graphUrl },
      credentials: delegatedCredentials(outlook.identity),
    };
  },
  change({ outlook, bodies }: Mailbox, changes) {
    for (let n = 0; n < changes; n++)
      outlook.edit(`mail-${n}`, {
        body: { contentType: 'html', content: html(`${bodies[n]} ${changedText(n)}`) },
      });
  },
  requests: ({ outlook }) => outlook.server.requests.length,
  close: ({ outlook }) => outlook.close(),
});

/** The fixture's threads, which go (Teams keeps a deleted root listed, marked deleted). */
const SEEDED_ROOTS: [channel: string, id: string][] = [
  [CHANNELS.engGeneral, '1001'],
  [CHANNELS.engGeneral, '1003'],
  [CHANNELS.incidents, '2001'],
  [CHANNELS.partners, '3001'],
  [CHANNELS.salesGeneral, '4001'],
];
const TEAMS_CHANNELS = [CHANNELS.engGeneral, CHANNELS.salesGeneral, CHANNELS.incidents, CHANNELS.partners];
const AUTHORS = ['Grace Hopper', 'Linus Torvalds', 'Ada Lovelace', 'Bob Builder'];
/** One thread in this many has replies (a thread is one document, its replies inside). */
const REPLIES_EVERY = 10;

interface TeamsWorkspace {
  teams: TeamsFake;
  threads: { channel: string; id: string; text: string }[];
}

export const msteamsRow = connectorRow({
  connector: teamsConnector,
  isOrg: false,
  async startWorkspace(items) {
    const teams = await startTeamsFake({ pageSize: 50 });
    for (const [channel, id] of SEEDED_ROOTS) teams.remove(channel, id);
    // The member leaves the fixture's chats, so they are not the benchmark's.
    teams.setChatMembers(CHATS.grace, [PEOPLE.grace]);
    teams.setChatMembers(CHATS.launch, [PEOPLE.bob, PEOPLE.linus]);
    const threads: TeamsWorkspace['threads'] = [];
    let k = 0;
    for (const { title, body } of textPieces(items, { min: 60, max: 2_000 })) {
      const channel = TEAMS_CHANNELS[k % TEAMS_CHANNELS.length]!;
      const id = String(100_000 + k);
      teams.post(channel, post(id, 0, escaped(body), AUTHORS[k % AUTHORS.length]));
      if (k % REPLIES_EVERY === 5) {
        teams.post(channel, post(`${id}1`, 0, escaped(title), AUTHORS[(k + 1) % AUTHORS.length]), id);
        teams.post(
          channel,
          post(`${id}2`, 0, 'Thanks, that settles it.', AUTHORS[(k + 2) % AUTHORS.length]),
          id,
        );
      }
      threads.push({ channel, id, text: body });
      k += 1;
    }
    return {
      fake: { teams, threads },
      config: { baseUrl: teams.graphUrl },
      credentials: delegatedCredentials(teams.identity),
    };
  },
  change({ teams, threads }: TeamsWorkspace, changes) {
    for (let n = 0; n < changes; n++) {
      const { channel, id, text } = threads[n]!;
      teams.edit(channel, id, escaped(`${text} ${changedText(n)}`));
    }
  },
  requests: ({ teams }) => teams.server.requests.length,
  close: ({ teams }) => teams.close(),
});

const FILES_PER_FOLDER = 500;
const COLLEAGUES = ['grace', 'linus', 'bob'];

interface Tenant {
  tenant: GraphTenantFake;
  files: { drive: string; spec: FileSpec; text: string }[];
}

/** A tenant of the fixture's sites and OneDrives, emptied, then `items` text files spread over `drives`. */
async function startTenant(items: number, drives: readonly string[]): Promise<Tenant> {
  const tenant = await startGraphTenantFake({ pageSize: 200 });
  for (const [drive, specs] of Object.entries(seedFiles()))
    for (const spec of [...specs].reverse()) tenant.remove(drive, spec.id);
  // the fixture's site pages and list items too, so the row's count is the files it seeds
  for (const key of tenant.siteContent().keys()) {
    const [kind, siteId, ...rest] = key.split(':');
    if (kind === 'page') tenant.removePage(siteId!, rest[0]!);
    else tenant.removeListItem(rest[0]!, rest[1]!);
  }
  const folders = Math.ceil(items / FILES_PER_FOLDER);
  for (let i = 0; i < folders; i++)
    tenant.upsert(drives[i % drives.length]!, {
      id: `folder-${i}`,
      name: `Project ${i}`,
      folder: true,
      permissions: [groupGrant(`folder-${i}`, 'g-eng')],
    });
  const files: Tenant['files'] = [];
  let k = 0;
  for (const { title, body } of textPieces(items, { min: 500, max: 8_000 })) {
    const folder = k % folders;
    const drive = drives[folder % drives.length]!;
    const id = `file-${k}`;
    // Most files open to the organisation by link, the others shared with a colleague by name.
    const permissions =
      k % 4 === 3 ? [userGrant(id, COLLEAGUES[k % COLLEAGUES.length]!)] : [linkGrant(id, 'organization')];
    const spec: FileSpec = {
      id,
      name: `${title.slice(0, 100).replaceAll('/', '-')} ${k}.txt`,
      parentId: `folder-${folder}`,
      modifiedDaysAgo: (k * DAYS) / items,
      permissions,
      content: new TextEncoder().encode(body),
      mimeType: 'text/plain',
    };
    tenant.upsert(drive, spec);
    files.push({ drive, spec, text: body });
    k += 1;
  }
  return { tenant, files };
}

function changeFiles({ tenant, files }: Tenant, changes: number): void {
  for (let n = 0; n < changes; n++) {
    const { drive, spec, text } = files[n]!;
    tenant.upsert(drive, {
      ...spec,
      modifiedDaysAgo: 0,
      content: new TextEncoder().encode(`${text}\n${changedText(n)}`),
    });
  }
}

const tenantCredentials = { email: ADMIN_EMAIL, marketplace: true };

export const sharepointRow = connectorRow({
  connector: sharepointConnector,
  isOrg: true,
  env: { SCOUT_OAUTH_SHAREPOINT_CLIENT_ID: CLIENT_ID, SCOUT_OAUTH_SHAREPOINT_CLIENT_SECRET: CLIENT_SECRET },
  async startWorkspace(items) {
    const fake = await startTenant(items, ['b!eng', 'b!hr']);
    return { fake, config: fake.tenant.config, credentials: tenantCredentials };
  },
  change: changeFiles,
  requests: ({ tenant }: Tenant) => tenant.graph.requests.length,
  close: ({ tenant }: Tenant) => tenant.close(),
});

export const onedriveRow = connectorRow({
  connector: onedriveConnector,
  isOrg: true,
  env: { SCOUT_OAUTH_ONEDRIVE_CLIENT_ID: CLIENT_ID, SCOUT_OAUTH_ONEDRIVE_CLIENT_SECRET: CLIENT_SECRET },
  async startWorkspace(items) {
    const fake = await startTenant(items, ['b!grace', 'b!linus']);
    return { fake, config: fake.tenant.config, credentials: tenantCredentials };
  },
  change: changeFiles,
  requests: ({ tenant }: Tenant) => tenant.graph.requests.length,
  close: ({ tenant }: Tenant) => tenant.close(),
});
