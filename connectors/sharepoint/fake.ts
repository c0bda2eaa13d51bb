// A fake Microsoft 365 tenant on 127.0.0.1: the identity platform's client-credentials token endpoint and the
// Graph calls the SharePoint and OneDrive connectors make (sites, drives, delta, items, permissions, users,
// groups, a Microsoft 365 group's team site and owners, site pages with their canvas and their driveItem's
// permissions in the Site Pages library, that library's drive delta (sharing changes shown only on Graph's Prefer
// header), lists and their items' delta). Answers are typed with @microsoft/microsoft-graph-types, so a shape Graph does not have fails to
// compile. Everything a test needs to change is scriptable: edits, moves, deletes, sharing, group membership,
// tokens that expire early and delta tokens too old to follow (410).
import type {
  Deleted,
  Drive,
  DriveItem,
  Group,
  List,
  ListItem,
  Permission,
  Site,
  SitePage,
  TextWebPart,
  User,
} from '@microsoft/microsoft-graph-types';
import { fakeAdminConsent } from '../microsoft/fake-identity';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from '../sdk/fake-server';

export const TENANT = 'contoso.com';
/** The tenant's id, which admin consent answers and the token endpoint takes as well as the domain. */
export const TENANT_ID = '6f1c3b2a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
export const CLIENT_ID = 'scout-graph-client';
export const CLIENT_SECRET = 'scout-graph-secret-7f3a';
export const ADMIN_EMAIL = `admin@${TENANT}`;

/** Collection answers: Graph's OData envelope around the typed items. */
interface Collection<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

interface StoredItem {
  item: DriveItem;
  /** A file's bytes, served by its download URL. */
  content: Uint8Array;
  /** The item's own permissions; inherited ones are computed from its folders. */
  permissions: Permission[];
}

interface StoredDrive {
  drive: Drive;
  /** The site of a document library, or the user of a OneDrive. */
  siteId?: string;
  userId?: string;
  items: Map<string, StoredItem>;
}

interface Change {
  seq: number;
  driveId: string;
  itemId: string;
}

interface StoredPage {
  siteId: string;
  /** With its canvasLayout, which Graph returns only when asked to expand it. */
  page: SitePage;
  /** The page's own permissions (broken inheritance); null while it inherits its library's. */
  permissions: Permission[] | null;
}

interface StoredList {
  siteId: string;
  list: List;
  items: Map<string, ListItem>;
}

/** A change to a site page, for its Site Pages library's drive delta: its content, or its sharing alone. */
interface PageChange {
  seq: number;
  siteId: string;
  pageId: string;
  sharing: boolean;
}

/** The Prefer values Graph requires together for a drive delta to show sharing changes. */
const SHARING_CHANGE_PREFERENCES = [
  'deltashowremovedasdeleted',
  'deltatraversepermissiongaps',
  'deltashowsharingchanges',
];

/** A page's driveItem as the library's delta lists it, marked when it is listed for a change of its sharing. */
type PageDeltaItem = DriveItem & { '@microsoft.graph.sharedChanged'?: 'True' };

/** A change to a list item, for the list's delta. */
interface ListChange {
  seq: number;
  listId: string;
  itemId: string;
}

/** What listItem delta answers: the item, or only its id and the deleted facet once it is gone. */
type DeltaListItem = ListItem & { deleted?: Deleted };

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

export const user = (name: string, tenant = TENANT): User => ({
  id: `u-${name}`,
  displayName: name[0]!.toUpperCase() + name.slice(1),
  mail: `${name}@${tenant}`,
  userPrincipalName: `${name}@${tenant}`,
});

/** A direct grant to a user, by id only, as Graph gives it. */
export const userGrant = (id: string, name: string): Permission => ({
  id: `p-user-${name}-${id}`,
  roles: ['read'],
  grantedToV2: { user: { id: `u-${name}`, displayName: name } },
});
export const groupGrant = (id: string, groupId: string): Permission => ({
  id: `p-group-${groupId}-${id}`,
  roles: ['write'],
  grantedToV2: { group: { id: groupId, displayName: groupId } },
});
export const siteGroupGrant = (id: string, siteGroupId: string): Permission => ({
  id: `p-sitegroup-${siteGroupId}-${id}`,
  roles: ['write'],
  grantedToV2: { siteGroup: { id: siteGroupId, displayName: 'Members', loginName: 'Members' } },
});
export const linkGrant = (
  id: string,
  scope: 'organization' | 'anonymous' | 'users',
  to: string[] = [],
): Permission => ({
  id: `p-link-${scope}-${id}`,
  roles: ['read'],
  link: { scope, type: 'view', webUrl: `https://contoso.sharepoint.com/:w:/s/${id}` },
  grantedToIdentitiesV2: to.map((name) => ({ user: { id: `u-${name}`, displayName: name } })),
});

export interface FileSpec {
  id: string;
  name: string;
  /** The folder holding it; the drive's root by default. */
  parentId?: string;
  folder?: boolean;
  modifiedDaysAgo?: number;
  permissions?: Permission[];
  /** The file's bytes (none by default) and its MIME type. */
  content?: Uint8Array;
  mimeType?: string;
  /** The size Graph reports, when it should differ from the content's (a file too large to download). */
  size?: number;
}

export interface PageSpec {
  id: string;
  title: string;
  description?: string;
  /** The HTML of the page's text web parts, one per entry, in page order. */
  paragraphs: string[];
  modifiedDaysAgo?: number;
}

export interface ListItemSpec {
  id: string;
  /** The item's columns, Title among them, as Graph's fields answer them. */
  fields: Record<string, string | number | boolean>;
  modifiedDaysAgo?: number;
}

export interface GraphTenantFake {
  readonly login: FakeServer;
  readonly graph: FakeServer;
  /** The connection settings that point a connector at this fake. */
  readonly config: { baseUrl: string; loginUrl: string };
  /** Every file's external id, as the connectors name them, with its title: what a full sync should index. */
  files(driveIds?: readonly string[]): Map<string, string>;
  /** Every site page's and list item's external id with its title, as a full sync should index them. */
  siteContent(): Map<string, string>;
  upsert(driveId: string, spec: FileSpec): void;
  /** Creates or rewrites a site page (site pages have no delta: the page's lastModifiedDateTime moves). */
  upsertPage(siteId: string, spec: PageSpec): void;
  removePage(siteId: string, pageId: string): void;
  /**
   * Gives a page permissions of its own (breaking inheritance), or with null has it inherit its Site Pages
   * library's again. Its lastModifiedDateTime stays, as at SharePoint; its library's drive delta shows the change
   * only to a request that prefers sharing changes.
   */
  setPagePermissions(siteId: string, pageId: string, permissions: Permission[] | null): void;
  upsertListItem(listId: string, spec: ListItemSpec): void;
  removeListItem(listId: string, itemId: string): void;
  /** A Microsoft 365 group's owners, by user id. */
  setGroupOwners(groupId: string, owners: string[]): void;
  rename(driveId: string, itemId: string, name: string): void;
  move(driveId: string, itemId: string, parentId: string): void;
  remove(driveId: string, itemId: string): void;
  /** Sharing changes leave no trace in delta (without Graph's sharing-change headers), as at Graph. */
  setPermissions(driveId: string, itemId: string, permissions: Permission[]): void;
  setGroupMembers(groupId: string, members: string[]): void;
  /** The tokens issued so far stop working (after `afterRequests` more Graph requests); new ones are issued. */
  expireTokens(afterRequests?: number): void;
  /** Delta tokens issued so far answer 410 resyncRequired. */
  expireDeltaTokens(): void;
  /** The token endpoint refuses the tenant as one that has not consented. */
  revokeConsent(): void;
  /** A delegated access token of the user `name` (a member's individual connection), for /me and what it reads. */
  memberToken(name: string): string;
  close(): Promise<void>;
}

/**
 * Engineering and HR sites with a library each, Grace's and Linus's OneDrives (and one for each of `people`, each
 * `b!<name>`, empty), security groups eng ⊃ sre, and the Microsoft 365 group whose team site Engineering is (HR
 * belongs to no group).
 */
function seed(
  tenant: string,
  people: readonly string[],
): {
  sites: Site[];
  drives: StoredDrive[];
  users: User[];
  groups: Map<string, string[]>;
  teams: Map<string, { siteId: string; owners: string[] }>;
} {
  const names = ['admin', 'ada', 'grace', 'linus', 'bob'];
  const users = [...names, ...people.filter((name) => !names.includes(name))].map((name) =>
    user(name, tenant),
  );
  const sites: Site[] = [
    { id: ENG_SITE, displayName: 'Engineering', name: 'eng' },
    { id: HR_SITE, displayName: 'HR', name: 'hr' },
  ];
  const drive = (id: string, name: string, owner: { siteId?: string; userId?: string }): StoredDrive => ({
    drive: { id, name, driveType: owner.siteId ? 'documentLibrary' : 'business' },
    ...owner,
    items: new Map([
      [
        'root',
        {
          item: { id: 'root', name: 'root', root: {}, folder: { childCount: 0 } },
          content: new Uint8Array(),
          permissions: [],
        },
      ],
    ]),
  });
  const oneDrives = ['grace', 'linus', ...people.filter((name) => name !== 'grace' && name !== 'linus')];
  return {
    users,
    sites,
    drives: [
      drive('b!eng', 'Documents', { siteId: sites[0]!.id! }),
      drive('b!hr', 'Documents', { siteId: sites[1]!.id! }),
      ...oneDrives.map((name) => drive(`b!${name}`, 'OneDrive', { userId: `u-${name}` })),
    ],
    groups: new Map([
      ['g-eng', ['u-grace', 'g-sre']],
      ['g-sre', ['u-linus']],
      [TEAM_GROUP, ['u-bob', 'u-linus']],
    ]),
    teams: new Map([[TEAM_GROUP, { siteId: sites[0]!.id!, owners: ['u-ada'] }]]),
  };
}

/** The Microsoft 365 group of the Engineering team site: Bob and Linus members, Ada its owner. */
export const TEAM_GROUP = 'm365-eng';
export const ENG_SITE = 'contoso.sharepoint.com,s-eng,w-eng';
export const HR_SITE = 'contoso.sharepoint.com,s-hr,w-hr';

/** The fixture's lists by site: libraries and hidden lists beside the lists whose items are indexed. */
function seedLists(): StoredList[] {
  const list = (
    siteId: string,
    id: string,
    displayName: string,
    template: string,
    hidden = false,
  ): StoredList => ({
    siteId,
    list: {
      id,
      name: displayName.replace(/ /g, ''),
      displayName,
      webUrl: `https://contoso.sharepoint.com/sites/${siteId.split(',')[1]}/Lists/${encodeURIComponent(displayName)}`,
      createdDateTime: daysAgo(30),
      lastModifiedDateTime: daysAgo(1),
      list: { hidden, template, contentTypesEnabled: false },
    },
    items: new Map(),
  });
  return [
    list(ENG_SITE, 'l-eng-docs', 'Documents', 'documentLibrary'),
    list(ENG_SITE, 'l-eng-pages', 'Site Pages', 'webPageLibrary'),
    list(ENG_SITE, 'l-incidents', 'Incidents', 'genericList'),
    list(ENG_SITE, 'l-eng-hidden', 'Workflow Tasks', 'genericList', true),
    list(HR_SITE, 'l-hr-pages', 'Site Pages', 'webPageLibrary'),
    list(HR_SITE, 'l-holidays', 'Holidays', 'genericList'),
  ];
}

/**
 * What every Site Pages library's root grants: the site's Owners, Visitors and Members SharePoint groups, as a new
 * site's libraries inherit them. A page that inherits lists the same grants, without inheritedFrom (Graph
 * documents that SharePoint libraries leave it out).
 */
export const SITE_PAGES_ROOT: readonly Permission[] = [
  siteGroupGrant('sitepages', '3'),
  siteGroupGrant('sitepages', '4'),
  siteGroupGrant('sitepages', '5'),
];

/** The fixture's site pages by site. */
function seedPages(): Record<string, PageSpec[]> {
  return {
    [ENG_SITE]: [
      {
        id: 'launch',
        title: 'Launch checklist',
        description: 'What ships when',
        paragraphs: [
          '<h2>Before launch</h2><p>Freeze the <b>zeppelin</b> schema.</p>',
          '<p>Tell support.</p>',
        ],
      },
      {
        id: 'ancient-page',
        title: 'Old intranet',
        paragraphs: ['<p>Retired.</p>'],
        modifiedDaysAgo: 4 * 365,
      },
    ],
    [HR_SITE]: [
      { id: 'benefits', title: 'Benefits overview', paragraphs: ['<p>Unpaid sabbatical rules.</p>'] },
    ],
  };
}

/** The fixture's list items by list. */
function seedListItems(): Record<string, ListItemSpec[]> {
  return {
    'l-incidents': [
      {
        id: '1',
        fields: { Title: 'Database failover', Severity: 'High', Summary: 'Replica lag on marmalade' },
      },
      { id: '2', fields: { Title: 'Expired certificate', Severity: 'Low', Resolved: true } },
    ],
    'l-eng-hidden': [{ id: '1', fields: { Title: 'Approval workflow step' } }],
    'l-eng-docs': [{ id: '1', fields: { Title: 'Design', FileLeafRef: 'Design documents.docx' } }],
    'l-holidays': [{ id: '1', fields: { Title: 'Company offsite', Date: '2026-07-01' } }],
  };
}

/** The fixture's files, by drive. */
export function seedFiles(): Record<string, FileSpec[]> {
  return {
    'b!eng': [
      { id: 'specs', name: 'Specs', folder: true, permissions: [groupGrant('specs', 'g-eng')] },
      {
        id: 'design',
        name: 'Design documents.docx',
        parentId: 'specs',
        permissions: [userGrant('design', 'bob')],
      },
      { id: 'roadmap', name: 'Roadmap documents.pptx', permissions: [linkGrant('roadmap', 'organization')] },
      { id: 'members', name: 'Members documents.xlsx', permissions: [siteGroupGrant('members', '5')] },
      {
        id: 'ancient',
        name: 'Ancient documents.txt',
        modifiedDaysAgo: 4 * 365,
        permissions: [linkGrant('a', 'organization')],
      },
    ],
    'b!hr': [
      { id: 'salaries', name: 'Salaries documents.xlsx', permissions: [userGrant('salaries', 'ada')] },
      {
        id: 'handbook',
        name: 'Handbook documents.pdf',
        permissions: [linkGrant('handbook', 'anonymous'), linkGrant('handbook', 'users', ['grace'])],
      },
      { id: 'offer', name: 'Offer documents.docx', permissions: [linkGrant('offer', 'users', ['linus'])] },
    ],
    'b!grace': [{ id: 'notes', name: 'Notes documents.md', permissions: [userGrant('notes', 'grace')] }],
    'b!linus': [
      {
        id: 'todo',
        name: 'Todo documents.txt',
        permissions: [userGrant('todo', 'linus'), userGrant('todo', 'grace')],
      },
    ],
  };
}

const bearer = (request: FakeRequest) => /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];

export interface GraphTenantFakeOptions {
  readonly pageSize?: number;
  /** The tenant's domain, which its users' addresses and the token endpoint's tenant are at. */
  readonly tenant?: string;
  /** More users of the tenant, by the local part of their address, beside the fixture's; each has a OneDrive. */
  readonly people?: readonly string[];
}

export async function startGraphTenantFake(options: GraphTenantFakeOptions = {}): Promise<GraphTenantFake> {
  const pageSize = options.pageSize ?? 2;
  const tenant = options.tenant ?? TENANT;
  const { sites, drives, users, groups, teams } = seed(tenant, options.people ?? []);
  const pages: StoredPage[] = [];
  const lists = seedLists();
  const listChanges: ListChange[] = [];
  const pageChanges: PageChange[] = [];
  const changes: Change[] = [];
  let seq = 0;
  let resyncBelow = 0;
  let issued = 0;
  const validTokens = new Set<string>();
  let consented = true;
  /** Delegated tokens by the user they were issued to. */
  const memberTokens = new Map<string, string>();
  let expireIn: number | null = null;

  const driveOf = (id: string) => drives.find((entry) => entry.drive.id === id);
  const record = (driveId: string, itemId: string) => changes.push({ seq: ++seq, driveId, itemId });

  const login = await startFakeServer();
  login.route('POST', '/:tenant/oauth2/v2.0/token', (request): FakeResponse => {
    const form = new URLSearchParams(request.body);
    if (request.params.tenant !== tenant && request.params.tenant !== TENANT_ID)
      return {
        status: 400,
        json: { error: 'invalid_request', error_description: 'AADSTS90002: Tenant not found.' },
      };
    if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET)
      return {
        status: 401,
        json: { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret.' },
      };
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('scope') !== 'https://graph.microsoft.com/.default'
    )
      return { status: 400, json: { error: 'invalid_request' } };
    if (!consented)
      return {
        status: 400,
        json: {
          error: 'unauthorized_client',
          error_description: 'AADSTS700016: Application not found in the directory.',
        },
      };
    const token = `graph-token-${++issued}`;
    validTokens.add(token);
    return { json: { token_type: 'Bearer', expires_in: 3599, access_token: token } };
  });

  fakeAdminConsent(login, {
    clientId: CLIENT_ID,
    tenantId: TENANT_ID,
    knows: (name) => name === tenant || name === TENANT_ID || name === 'organizations',
    onConsent: () => {
      consented = true;
    },
  });

  const graph = await startFakeServer();
  const base = () => `${graph.url}/v1.0`;
  /** Auth first, as Graph does: an unknown or expired token is a 401 whatever the path. */
  const authed =
    (handler: (request: FakeRequest) => FakeResponse) =>
    (request: FakeRequest): FakeResponse => {
      if (expireIn !== null && expireIn-- <= 0) {
        expireIn = null;
        validTokens.clear();
      }
      const token = bearer(request);
      if (!token || (!validTokens.has(token) && !memberTokens.has(token)))
        return {
          status: 401,
          json: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired.' } },
        };
      return handler(request);
    };
  const notFound: FakeResponse = {
    status: 404,
    json: { error: { code: 'itemNotFound', message: 'Item not found' } },
  };
  const paged = <T>(all: T[], request: FakeRequest, path: string): Collection<T> => {
    const skip = Number(request.query.get('$skiptoken') ?? 0);
    const size = Math.min(pageSize, Number(request.query.get('$top') ?? pageSize) || pageSize);
    const next = new URL(`${base()}${path}`);
    for (const [key, value] of request.query) if (key !== '$skiptoken') next.searchParams.set(key, value);
    next.searchParams.set('$skiptoken', String(skip + size));
    return {
      value: all.slice(skip, skip + size),
      ...(skip + size < all.length ? { '@odata.nextLink': next.href } : {}),
    };
  };

  const pathOf = (stored: StoredDrive, itemId: string): string => {
    const names: string[] = [];
    for (let id = stored.items.get(itemId)?.item.parentReference?.id; id && id !== 'root';) {
      const folder = stored.items.get(id)?.item;
      names.unshift(folder?.name ?? '');
      id = folder?.parentReference?.id ?? undefined;
    }
    return `/drives/${stored.drive.id}/root:${names.map((name) => `/${encodeURIComponent(name)}`).join('')}`;
  };
  /** The item's own permissions and, marked inheritedFrom, those of every folder above it. */
  const permissionsOf = (stored: StoredDrive, itemId: string): Permission[] => {
    const own = stored.items.get(itemId)?.permissions ?? [];
    const inherited: Permission[] = [];
    for (let id = stored.items.get(itemId)?.item.parentReference?.id; id;) {
      const folder = stored.items.get(id);
      for (const permission of folder?.permissions ?? [])
        inherited.push({ ...permission, inheritedFrom: { driveId: stored.drive.id, id } });
      id = folder?.item.parentReference?.id ?? undefined;
    }
    return [...own, ...inherited];
  };
  /** Delta leaves out parentReference.path (Graph documents it so). */
  const deltaView = (item: DriveItem): DriveItem => ({
    ...item,
    parentReference: item.parentReference
      ? { driveId: item.parentReference.driveId, id: item.parentReference.id }
      : null,
  });

  graph.route(
    'GET',
    '/v1.0/sites/root',
    authed(() => ({ json: { ...sites[0]!, displayName: 'Contoso' } satisfies Site })),
  );
  graph.route(
    'GET',
    '/v1.0/sites',
    authed((request) => {
      if (request.query.get('search') !== '*')
        return { status: 400, json: { error: { code: 'invalidRequest' } } };
      return { json: paged<Site>(sites, request, '/sites') };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/sites/:site/drives',
    authed((request) => {
      const own = drives.filter((entry) => entry.siteId === request.params.site).map((entry) => entry.drive);
      return {
        json: paged<Drive>(own, request, `/sites/${encodeURIComponent(request.params.site!)}/drives`),
      };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/users',
    authed((request) => ({ json: paged<User>(users, request, '/users') })),
  );
  graph.route(
    'GET',
    '/v1.0/me/drive',
    authed((request) => {
      const userId = memberTokens.get(bearer(request) ?? '');
      if (!userId)
        return { status: 400, json: { error: { code: 'BadRequest', message: '/me needs a user.' } } };
      const own = drives.find((entry) => entry.userId === userId);
      return own ? { json: own.drive satisfies Drive } : notFound;
    }),
  );
  graph.route(
    'GET',
    '/v1.0/users/:user/drive',
    authed((request) => {
      const own = drives.find((entry) => entry.userId === request.params.user);
      return own
        ? { json: own.drive satisfies Drive }
        : { status: 404, json: { error: { code: 'ResourceNotFound' } } };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/groups',
    authed((request) => ({
      json: paged<Group>(
        [...groups.keys()].map((id) => ({
          id,
          displayName: id,
          groupTypes: teams.has(id) ? ['Unified'] : [],
        })),
        request,
        '/groups',
      ),
    })),
  );
  graph.route(
    'GET',
    '/v1.0/groups/:group/sites/root',
    authed((request) => {
      const team = teams.get(request.params.group!);
      const site = sites.find((entry) => entry.id === team?.siteId);
      return site ? { json: site satisfies Site } : notFound;
    }),
  );
  graph.route(
    'GET',
    '/v1.0/groups/:group/owners/microsoft.graph.user',
    authed((request) => {
      const team = teams.get(request.params.group!);
      if (!groups.has(request.params.group!)) return notFound;
      const owners = users.filter((entry) => team?.owners.includes(entry.id!));
      return {
        json: paged<User>(owners, request, `/groups/${request.params.group}/owners/microsoft.graph.user`),
      };
    }),
  );

  // Site pages: the list leaves the canvas out, a page read with $expand=canvasLayout carries it.
  const withoutCanvas = ({ canvasLayout: _canvas, ...page }: SitePage): SitePage => page;
  graph.route(
    'GET',
    '/v1.0/sites/:site/pages/microsoft.graph.sitePage',
    authed((request) => {
      if (!sites.some((site) => site.id === request.params.site)) return notFound;
      const own = pages
        .filter((entry) => entry.siteId === request.params.site)
        .map((entry) => withoutCanvas(entry.page));
      const path = `/sites/${encodeURIComponent(request.params.site!)}/pages/microsoft.graph.sitePage`;
      return { json: paged<SitePage>(own, request, path) };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/sites/:site/pages/:page/microsoft.graph.sitePage',
    authed((request) => {
      const entry = pages.find(
        (stored) => stored.siteId === request.params.site && stored.page.id === request.params.page,
      );
      if (!entry) return notFound;
      const expand = request.query.get('$expand') === 'canvasLayout';
      return { json: (expand ? entry.page : withoutCanvas(entry.page)) satisfies SitePage };
    }),
  );
  // A page's driveItem in its site's Site Pages library (the only libraries the fixture serves as lists: the
  // others are served as drives), addressed by the page's id, and that library's root.
  const sitePagesOf = (request: FakeRequest) =>
    lists.find(
      (entry) =>
        entry.siteId === request.params.site &&
        entry.list.id === request.params.list &&
        entry.list.list?.template === 'webPageLibrary',
    );
  graph.route(
    'GET',
    '/v1.0/sites/:site/lists/:list/drive/root/permissions',
    authed((request) => {
      const library = sitePagesOf(request);
      if (!library) return notFound;
      const path = `/sites/${encodeURIComponent(library.siteId)}/lists/${encodeURIComponent(library.list.id!)}/drive/root/permissions`;
      return { json: paged<Permission>([...SITE_PAGES_ROOT], request, path) };
    }),
  );
  // The Site Pages library's drive delta: `token=latest` answers only a delta link; a token answers the pages changed
  // since, and those whose sharing alone changed only when the request prefers to see sharing changes.
  graph.route(
    'GET',
    '/v1.0/sites/:site/lists/:list/drive/root/delta',
    authed((request) => {
      const library = sitePagesOf(request);
      if (!library) return notFound;
      const token = request.query.get('token');
      const since = token === null || token === 'latest' ? null : Number(token);
      if (since !== null && since < resyncBelow)
        return { status: 410, json: { error: { code: 'resyncRequired', message: 'Resync required.' } } };
      const preferred = String(request.headers.prefer ?? '')
        .split(',')
        .map((value) => value.trim());
      const sharing = SHARING_CHANGE_PREFERENCES.every((value) => preferred.includes(value));
      const own = pages.filter((entry) => entry.siteId === library.siteId);
      const itemOf = (pageId: string, sharedChanged: boolean): PageDeltaItem => ({
        id: `di-${pageId}`,
        name: `${pageId}.aspx`,
        sharepointIds: { listId: library.list.id, listItemUniqueId: pageId },
        ...(own.some((entry) => entry.page.id === pageId) ? {} : { deleted: { state: 'deleted' } }),
        ...(sharedChanged ? { '@microsoft.graph.sharedChanged': 'True' as const } : {}),
      });
      let items: PageDeltaItem[] = [];
      if (token === null) items = own.map((entry) => itemOf(entry.page.id!, false));
      else if (since !== null) {
        const changed = new Map<string, boolean>();
        for (const change of pageChanges)
          if (change.siteId === library.siteId && change.seq > since && (sharing || !change.sharing))
            changed.set(change.pageId, (changed.get(change.pageId) ?? false) || change.sharing);
        items = [...changed].map(([pageId, sharedChanged]) => itemOf(pageId, sharedChanged));
      }
      const link = new URL(
        `${base()}/sites/${encodeURIComponent(library.siteId)}/lists/${encodeURIComponent(library.list.id!)}/drive/root/delta`,
      );
      link.searchParams.set('token', String(seq));
      const answer: Collection<PageDeltaItem> = { value: items, '@odata.deltaLink': link.href };
      return { json: answer };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/sites/:site/lists/:list/items/:item/driveItem/permissions',
    authed((request) => {
      const library = sitePagesOf(request);
      const entry = pages.find(
        (stored) => stored.siteId === request.params.site && stored.page.id === request.params.item,
      );
      if (!library || !entry) return notFound;
      const path = `/sites/${encodeURIComponent(library.siteId)}/lists/${encodeURIComponent(library.list.id!)}/items/${encodeURIComponent(entry.page.id!)}/driveItem/permissions`;
      return { json: paged<Permission>(entry.permissions ?? [...SITE_PAGES_ROOT], request, path) };
    }),
  );

  // Lists: system lists only when `system` is selected, as Graph does; none of the fixture's is one.
  graph.route(
    'GET',
    '/v1.0/sites/:site/lists',
    authed((request) => {
      if (!sites.some((site) => site.id === request.params.site)) return notFound;
      const own = lists.filter((entry) => entry.siteId === request.params.site).map((entry) => entry.list);
      return { json: paged<List>(own, request, `/sites/${encodeURIComponent(request.params.site!)}/lists`) };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/sites/:site/lists/:list/items/delta',
    authed((request) => {
      const stored = lists.find(
        (entry) => entry.siteId === request.params.site && entry.list.id === request.params.list,
      );
      if (!stored) return notFound;
      const token = request.query.get('token');
      const since = token === null ? null : Number(token);
      if (since !== null && since < resyncBelow)
        return { status: 410, json: { error: { code: 'resyncRequired', message: 'Resync required.' } } };
      const as = Number(request.query.get('as') ?? seq);
      const skip = Number(request.query.get('skip') ?? 0);
      const withFields = request.query.get('$expand') === 'fields';
      const view = (item: ListItem): DeltaListItem => {
        const { fields: _fields, ...rest } = item;
        return withFields ? item : rest;
      };
      let items: DeltaListItem[];
      if (since === null) items = [...stored.items.values()].map(view);
      else {
        const latest = new Set(
          listChanges
            .filter((change) => change.listId === stored.list.id && change.seq > since && change.seq <= as)
            .map((change) => change.itemId),
        );
        items = [...latest].map((id) => {
          const item = stored.items.get(id);
          return item ? view(item) : { id, deleted: { state: 'deleted' } };
        });
      }
      const path = `/sites/${encodeURIComponent(stored.siteId)}/lists/${encodeURIComponent(stored.list.id!)}/items/delta`;
      const link = new URL(`${base()}${path}`);
      if (withFields) link.searchParams.set('$expand', 'fields');
      const more = skip + pageSize < items.length;
      if (more) {
        if (since !== null) link.searchParams.set('token', String(since));
        link.searchParams.set('as', String(as));
        link.searchParams.set('skip', String(skip + pageSize));
      } else link.searchParams.set('token', String(as));
      const answer: Collection<DeltaListItem> = {
        value: items.slice(skip, skip + pageSize),
        ...(more ? { '@odata.nextLink': link.href } : { '@odata.deltaLink': link.href }),
      };
      return { json: answer };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/groups/:group/transitiveMembers/microsoft.graph.user',
    authed((request) => {
      const found = new Set<string>();
      const pending = [request.params.group!];
      const seen = new Set(pending);
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        for (const member of groups.get(next) ?? []) {
          if (member.startsWith('u-')) found.add(member);
          else if (!seen.has(member)) {
            seen.add(member);
            pending.push(member);
          }
        }
      }
      const members = users.filter((entry) => found.has(entry.id!));
      const path = `/groups/${request.params.group}/transitiveMembers/microsoft.graph.user`;
      return { json: paged<User>(members, request, path) };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/drives/:drive/root/delta',
    authed((request) => {
      const stored = driveOf(request.params.drive!);
      if (!stored) return notFound;
      const token = request.query.get('token');
      const since = token === null ? null : Number(token);
      if (since !== null && since < resyncBelow)
        return { status: 410, json: { error: { code: 'resyncRequired', message: 'Resync required.' } } };
      const as = Number(request.query.get('as') ?? seq);
      const skip = Number(request.query.get('skip') ?? 0);
      let items: DriveItem[];
      if (since === null) items = [...stored.items.values()].map((entry) => deltaView(entry.item));
      else {
        const latest = new Set(
          changes
            .filter((change) => change.driveId === stored.drive.id && change.seq > since && change.seq <= as)
            .map((c) => c.itemId),
        );
        items = [...latest].map((id) => {
          const entry = stored.items.get(id);
          return entry
            ? deltaView(entry.item)
            : { id, deleted: { state: 'deleted' }, parentReference: { id: 'root' } };
        });
      }
      const link = new URL(`${base()}/drives/${encodeURIComponent(stored.drive.id!)}/root/delta`);
      const more = skip + pageSize < items.length;
      if (more) {
        if (since !== null) link.searchParams.set('token', String(since));
        link.searchParams.set('as', String(as));
        link.searchParams.set('skip', String(skip + pageSize));
      } else link.searchParams.set('token', String(as));
      const answer: Collection<DriveItem> = {
        value: items.slice(skip, skip + pageSize),
        ...(more ? { '@odata.nextLink': link.href } : { '@odata.deltaLink': link.href }),
      };
      return { json: answer };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/drives/:drive/items/:item',
    authed((request) => {
      const stored = driveOf(request.params.drive!);
      const entry = stored?.items.get(request.params.item!);
      if (!stored || !entry) return notFound;
      const item: DriveItem = {
        ...entry.item,
        parentReference: entry.item.parentReference
          ? { ...entry.item.parentReference, path: pathOf(stored, entry.item.id!) }
          : null,
      };
      return { json: item };
    }),
  );
  graph.route(
    'GET',
    '/v1.0/drives/:drive/items/:item/permissions',
    authed((request) => {
      const stored = driveOf(request.params.drive!);
      if (!stored?.items.has(request.params.item!)) return notFound;
      const path = `/drives/${encodeURIComponent(stored.drive.id!)}/items/${encodeURIComponent(request.params.item!)}/permissions`;
      return { json: paged<Permission>(permissionsOf(stored, request.params.item!), request, path) };
    }),
  );

  // Graph answers /content with a redirect to a pre-authenticated URL, which needs no token of its own.
  graph.route(
    'GET',
    '/v1.0/drives/:drive/items/:item/content',
    authed((request) => {
      const entry = driveOf(request.params.drive!)?.items.get(request.params.item!);
      if (!entry?.item.file) return notFound;
      const download = `${graph.url}/download/${encodeURIComponent(request.params.drive!)}/${encodeURIComponent(entry.item.id!)}?tempauth=fake`;
      return { status: 302, headers: { location: download } };
    }),
  );
  graph.route('GET', '/download/:drive/:item', (request) => {
    const entry = driveOf(request.params.drive!)?.items.get(request.params.item!);
    if (!entry || request.query.get('tempauth') !== 'fake') return { status: 401 };
    return {
      body: entry.content,
      headers: { 'content-type': entry.item.file?.mimeType ?? 'application/octet-stream' },
    };
  });

  const mustDrive = (driveId: string) => {
    const stored = driveOf(driveId);
    if (!stored) throw new Error(`no drive ${driveId}`);
    return stored;
  };
  const mustItem = (driveId: string, itemId: string) => {
    const entry = mustDrive(driveId).items.get(itemId);
    if (!entry) throw new Error(`no item ${itemId} in ${driveId}`);
    return entry;
  };
  const touch = (driveId: string, entry: StoredItem, patch: Partial<DriveItem>) => {
    entry.item = { ...entry.item, ...patch, lastModifiedDateTime: new Date().toISOString() };
    record(driveId, entry.item.id!);
  };

  const mustList = (listId: string) => {
    const stored = lists.find((entry) => entry.list.id === listId);
    if (!stored) throw new Error(`no list ${listId}`);
    return stored;
  };
  const fresh = (modified: string | null | undefined) =>
    new Date(modified ?? 0).getTime() > Date.now() - 3 * 365 * DAY_MS;

  const fake: GraphTenantFake = {
    login,
    graph,
    config: { baseUrl: `${graph.url}/v1.0`, loginUrl: login.url },
    files(driveIds) {
      const all = new Map<string, string>();
      for (const stored of drives) {
        if (driveIds && !driveIds.includes(stored.drive.id!)) continue;
        for (const { item } of stored.items.values()) {
          const fresh = new Date(item.lastModifiedDateTime ?? 0).getTime() > Date.now() - 3 * 365 * DAY_MS;
          if (item.file && fresh) all.set(`${stored.drive.id}:${item.id}`, item.name!);
        }
      }
      return all;
    },
    siteContent() {
      const all = new Map<string, string>();
      for (const { siteId, page } of pages)
        if (fresh(page.lastModifiedDateTime)) all.set(`page:${siteId}:${page.id}`, page.title!);
      for (const { siteId, list, items } of lists) {
        if (list.list?.hidden || list.list?.template?.endsWith('Library')) continue;
        for (const item of items.values()) {
          // Graph's fieldValueSet is open: its columns are the list's own.
          const title = (item.fields as Record<string, unknown> | null | undefined)?.Title;
          if (fresh(item.lastModifiedDateTime))
            all.set(`listitem:${siteId}:${list.id}:${item.id}`, String(title));
        }
      }
      return all;
    },
    upsertPage(siteId, spec) {
      const modified = daysAgo(spec.modifiedDaysAgo ?? 1);
      const existing = pages.find((entry) => entry.siteId === siteId && entry.page.id === spec.id);
      const webParts = spec.paragraphs.map((innerHtml, index): TextWebPart => ({
        id: `${spec.id}-wp-${index}`,
        innerHtml,
      }));
      const page: SitePage = {
        id: spec.id,
        name: `${spec.title.replace(/ /g, '-')}.aspx`,
        title: spec.title,
        description: spec.description ?? null,
        webUrl: `https://contoso.sharepoint.com/sites/${siteId.split(',')[1]}/SitePages/${encodeURIComponent(spec.id)}.aspx`,
        createdDateTime: existing?.page.createdDateTime ?? modified,
        lastModifiedDateTime: existing ? new Date().toISOString() : modified,
        createdBy: { user: { id: 'u-ada', displayName: 'Ada' } },
        pageLayout: 'article',
        publishingState: { level: 'published', versionId: '1.0' },
        // The first text web part alone in a full-width section, the rest in a two-column one.
        canvasLayout: {
          id: `${spec.id}-canvas`,
          horizontalSections: [
            {
              id: '1',
              layout: 'fullWidth',
              columns: [{ id: '1', width: 12, webparts: webParts.slice(0, 1) }],
            },
            {
              id: '2',
              layout: 'twoColumns',
              columns: [
                { id: '1', width: 6, webparts: webParts.slice(1) },
                { id: '2', width: 6, webparts: [] },
              ],
            },
          ],
        },
      };
      if (existing) existing.page = page;
      else pages.push({ siteId, page, permissions: null });
      pageChanges.push({ seq: ++seq, siteId, pageId: spec.id, sharing: false });
    },
    removePage(siteId, pageId) {
      const at = pages.findIndex((entry) => entry.siteId === siteId && entry.page.id === pageId);
      if (at < 0) throw new Error(`no page ${pageId} in ${siteId}`);
      pages.splice(at, 1);
      pageChanges.push({ seq: ++seq, siteId, pageId, sharing: false });
    },
    setPagePermissions(siteId, pageId, permissions) {
      const entry = pages.find((stored) => stored.siteId === siteId && stored.page.id === pageId);
      if (!entry) throw new Error(`no page ${pageId} in ${siteId}`);
      entry.permissions = permissions;
      pageChanges.push({ seq: ++seq, siteId, pageId, sharing: true });
    },
    upsertListItem(listId, spec) {
      const stored = mustList(listId);
      const modified = daysAgo(spec.modifiedDaysAgo ?? 1);
      const existing = stored.items.get(spec.id);
      stored.items.set(spec.id, {
        id: spec.id,
        webUrl: `${stored.list.webUrl}/DispForm.aspx?ID=${spec.id}`,
        createdDateTime: existing?.createdDateTime ?? modified,
        lastModifiedDateTime: existing ? new Date().toISOString() : modified,
        createdBy: { user: { id: 'u-ada', displayName: 'Ada' } },
        contentType: { id: '0x0100', name: 'Item' },
        fields: { ...spec.fields, id: spec.id },
      });
      listChanges.push({ seq: ++seq, listId, itemId: spec.id });
    },
    removeListItem(listId, itemId) {
      const stored = mustList(listId);
      if (!stored.items.delete(itemId)) throw new Error(`no item ${itemId} in ${listId}`);
      listChanges.push({ seq: ++seq, listId, itemId });
    },
    setGroupOwners(groupId, owners) {
      const team = teams.get(groupId);
      if (!team) throw new Error(`no Microsoft 365 group ${groupId}`);
      team.owners = owners;
    },
    upsert(driveId, spec) {
      const stored = mustDrive(driveId);
      const modified = daysAgo(spec.modifiedDaysAgo ?? 1);
      const host = stored.siteId
        ? 'https://contoso.sharepoint.com/sites'
        : 'https://contoso-my.sharepoint.com/personal';
      stored.items.set(spec.id, {
        item: {
          id: spec.id,
          name: spec.name,
          webUrl: `${host}/${encodeURIComponent(stored.drive.id!)}/${encodeURIComponent(spec.name)}`,
          createdDateTime: modified,
          lastModifiedDateTime: modified,
          createdBy: { user: { id: 'u-ada', displayName: 'Ada' } },
          parentReference: { driveId, id: spec.parentId ?? 'root' },
          ...(spec.folder
            ? { folder: { childCount: 0 } }
            : {
                file: { mimeType: spec.mimeType ?? 'application/octet-stream' },
                size: spec.size ?? spec.content?.byteLength ?? 0,
              }),
        },
        content: spec.content ?? new Uint8Array(),
        permissions: spec.permissions ?? [],
      });
      record(driveId, spec.id);
    },
    rename(driveId, itemId, name) {
      touch(driveId, mustItem(driveId, itemId), { name });
    },
    move(driveId, itemId, parentId) {
      touch(driveId, mustItem(driveId, itemId), { parentReference: { driveId, id: parentId } });
    },
    remove(driveId, itemId) {
      mustItem(driveId, itemId);
      mustDrive(driveId).items.delete(itemId);
      record(driveId, itemId);
    },
    setPermissions(driveId, itemId, permissions) {
      mustItem(driveId, itemId).permissions = permissions;
    },
    setGroupMembers(groupId, members) {
      groups.set(groupId, members);
    },
    expireTokens(afterRequests = 0) {
      expireIn = afterRequests;
    },
    expireDeltaTokens() {
      resyncBelow = seq + 1;
    },
    revokeConsent() {
      consented = false;
    },
    memberToken(name) {
      const token = `member-token-${name}`;
      memberTokens.set(token, `u-${name}`);
      return token;
    },
    async close() {
      await Promise.all([login.close(), graph.close()]);
    },
  };
  for (const [driveId, specs] of Object.entries(seedFiles()))
    for (const spec of specs) fake.upsert(driveId, spec);
  for (const [siteId, specs] of Object.entries(seedPages()))
    for (const spec of specs) fake.upsertPage(siteId, spec);
  for (const [listId, specs] of Object.entries(seedListItems()))
    for (const spec of specs) fake.upsertListItem(listId, spec);
  // The seed is the starting state, not a change a delta token taken now should report.
  changes.length = 0;
  listChanges.length = 0;
  pageChanges.length = 0;
  return fake;
}
