// A fake of Notion's public API (version 2025-09-03, the one @notionhq/client 5 speaks) on 127.0.0.1, for the
// connector's tests. Every answer is typed with the client's own response types, so a shape the real API does not
// have does not compile. It keeps what the connector relies on: search over what is shared with the integration
// (a page shared gives its descendants too), sorted by last_edited_time, rounded down to the minute as Notion's
// timestamps are; paginated block children and comments; users.list without guests; 404 for what the integration
// cannot reach; 401 for a revoked token; 429 with Retry-After; and the OAuth token exchange with HTTP Basic auth.
import { createHash } from 'node:crypto';
import {
  APIErrorCode,
  type BlockObjectResponse,
  type CommentObjectResponse,
  type DataSourceObjectResponse,
  type GetSelfResponse,
  type ListBlockChildrenResponse,
  type ListCommentsResponse,
  type ListUsersResponse,
  type OauthTokenResponse,
  type PageObjectResponse,
  type RichTextItemResponse,
  type SearchResponse,
  type UserObjectResponse,
} from '@notionhq/client';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from '../sdk/fake-server';

export const NOTION_VERSION = '2025-09-03';
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const MAX_PAGE_SIZE = 100;

/** Notion's ids are UUIDs; the fake derives them from readable keys so tests can name what they mean. */
export function notionId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Notion reports created and last-edited times to the minute. */
function minuteOf(ms: number): string {
  return new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS).toISOString();
}

export function richText(content: string): RichTextItemResponse[] {
  return [
    {
      type: 'text',
      text: { content, link: null },
      annotations: {
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false,
        color: 'default',
      },
      plain_text: content,
      href: null,
    },
  ];
}

type BlockCommon = Pick<
  BlockObjectResponse,
  | 'object'
  | 'id'
  | 'parent'
  | 'created_time'
  | 'created_by'
  | 'last_edited_time'
  | 'last_edited_by'
  | 'has_children'
  | 'in_trash'
  | 'archived'
>;

/** A block as a test writes it: how to build its API object, and its children. */
export interface BlockSpec {
  readonly build: (common: BlockCommon) => BlockObjectResponse;
  readonly children?: readonly BlockSpec[];
}

const textContent = (text: string) => ({ rich_text: richText(text), color: 'default' as const });

export const blocks = {
  paragraph: (text: string, children?: BlockSpec[]): BlockSpec => ({
    build: (c) => ({ ...c, type: 'paragraph', paragraph: { ...textContent(text), icon: null } }),
    children,
  }),
  heading: (text: string): BlockSpec => ({
    build: (c) => ({ ...c, type: 'heading_2', heading_2: { ...textContent(text), is_toggleable: false } }),
  }),
  bullet: (text: string, children?: BlockSpec[]): BlockSpec => ({
    build: (c) => ({ ...c, type: 'bulleted_list_item', bulleted_list_item: textContent(text) }),
    children,
  }),
  numbered: (text: string): BlockSpec => ({
    build: (c) => ({ ...c, type: 'numbered_list_item', numbered_list_item: textContent(text) }),
  }),
  todo: (text: string, checked: boolean): BlockSpec => ({
    build: (c) => ({ ...c, type: 'to_do', to_do: { ...textContent(text), checked } }),
  }),
  toggle: (text: string, children: BlockSpec[]): BlockSpec => ({
    build: (c) => ({ ...c, type: 'toggle', toggle: textContent(text) }),
    children,
  }),
  code: (text: string): BlockSpec => ({
    build: (c) => ({
      ...c,
      type: 'code',
      code: { rich_text: richText(text), caption: [], language: 'bash' },
    }),
  }),
  table: (rows: string[][]): BlockSpec => ({
    build: (c) => ({
      ...c,
      type: 'table',
      table: { has_column_header: true, has_row_header: false, table_width: rows[0]?.length ?? 0 },
    }),
    children: rows.map((cells): BlockSpec => ({
      build: (c) => ({ ...c, type: 'table_row', table_row: { cells: cells.map(richText) } }),
    })),
  }),
  divider: (): BlockSpec => ({ build: (c) => ({ ...c, type: 'divider', divider: {} }) }),
  childPage: (title: string): BlockSpec => ({
    build: (c) => ({ ...c, type: 'child_page', child_page: { title } }),
  }),
  childDatabase: (title: string): BlockSpec => ({
    build: (c) => ({ ...c, type: 'child_database', child_database: { title } }),
  }),
};

export type PropertyValue = PageObjectResponse['properties'][string];
export type PropertyConfig = DataSourceObjectResponse['properties'][string];

export interface FakeUser {
  readonly key: string;
  readonly name: string;
  readonly email: string;
  role: 'member' | 'guest';
}

type Parent = { page: string } | { dataSource: string } | 'workspace';

export interface PageSpec {
  readonly key: string;
  readonly title: string;
  readonly parent: Parent;
  readonly blocks?: readonly BlockSpec[];
  /** A database row's other properties (the title is `title`). */
  readonly properties?: Readonly<Record<string, PropertyValue>>;
  readonly comments?: readonly string[];
  readonly editedDaysAgo?: number;
  /** Shared to the web: Notion then reports a public URL. */
  readonly publicUrl?: boolean;
}

export interface DataSourceSpec {
  readonly key: string;
  readonly title: string;
  readonly description: string;
  readonly parentPage: string;
  readonly properties: Readonly<Record<string, PropertyConfig>>;
  readonly editedDaysAgo?: number;
}

interface StoredBlock {
  readonly response: BlockObjectResponse;
  readonly children: StoredBlock[];
}

interface StoredObject {
  key: string;
  kind: 'page' | 'data_source';
  parent: Parent;
  title: string;
  spec: PageSpec | DataSourceSpec;
  createdMs: number;
  editedMs: number;
  inTrash: boolean;
  blocks: StoredBlock[];
  comments: string[];
}

const ADA: FakeUser = { key: 'ada', name: 'Ada Lovelace', email: 'Ada@Example.com', role: 'member' };

/** Members Ada (who installs the integration), Grace and Linus; Gus is a guest. */
export function seedUsers(): FakeUser[] {
  return [
    { ...ADA },
    { key: 'grace', name: 'Grace Hopper', email: 'grace@example.com', role: 'member' },
    { key: 'linus', name: 'Linus Torvalds', email: 'linus@example.com', role: 'member' },
    { key: 'gus', name: 'Gus Guest', email: 'gus@partner.example', role: 'guest' },
  ];
}

const tasksSchema: Record<string, PropertyConfig> = {
  Name: { id: 'title', name: 'Name', description: null, type: 'title', title: {} },
  Status: {
    id: 'st',
    name: 'Status',
    description: null,
    type: 'select',
    select: { options: [{ id: 'o1', name: 'In progress', color: 'blue', description: null }] },
  },
  Points: { id: 'pt', name: 'Points', description: null, type: 'number', number: { format: 'number' } },
};

const taskRow = (key: string, title: string, status: string, points: number, days: number): PageSpec => ({
  key,
  title,
  parent: { dataSource: 'tasks' },
  editedDaysAgo: days,
  properties: {
    Status: { id: 'st', type: 'select', select: { id: 'o1', name: status, color: 'blue' } },
    Points: { id: 'pt', type: 'number', number: points },
  },
  blocks: [blocks.paragraph(`Notes on ${title.toLowerCase()}.`)],
});

/**
 * A small workspace: the handbook (shared with the integration, so its sub-page, database and rows are too), a
 * page shared to the web, an old page outside the three-year window, and a page never shared (never visible).
 */
export function seedWorkspace(): { pages: PageSpec[]; dataSources: DataSourceSpec[]; shared: string[] } {
  return {
    shared: ['handbook', 'press', 'old'],
    dataSources: [
      {
        key: 'tasks',
        title: 'Roadmap tasks',
        description: 'What the platform team ships this quarter.',
        parentPage: 'handbook',
        properties: tasksSchema,
        editedDaysAgo: 3,
      },
    ],
    pages: [
      {
        key: 'handbook',
        title: 'Engineering handbook',
        parent: 'workspace',
        editedDaysAgo: 1,
        comments: ['Reviewed by the platform team.'],
        blocks: [
          blocks.heading('How we work'),
          blocks.paragraph('Deploys happen on weekdays.'),
          blocks.bullet('Write tests', [blocks.bullet('Beside the code')]),
          blocks.numbered('Open a pull request'),
          blocks.numbered('Get a review'),
          blocks.todo('Read the handbook', true),
          blocks.toggle('Escalation', [blocks.paragraph('Page the on-call engineer.')]),
          blocks.code('npm test'),
          blocks.table([
            ['Service', 'Owner'],
            ['search', 'Grace'],
          ]),
          blocks.divider(),
          blocks.childPage('On-call rotation'),
          blocks.childDatabase('Roadmap tasks'),
        ],
      },
      {
        key: 'oncall',
        title: 'On-call rotation',
        parent: { page: 'handbook' },
        editedDaysAgo: 2,
        blocks: [blocks.paragraph('The rotation changes every Monday.')],
      },
      taskRow('task-search', 'Ship search', 'In progress', 5, 4),
      taskRow('task-sync', 'Fix stuck syncs', 'Done', 3, 5),
      {
        key: 'press',
        title: 'Press kit',
        parent: 'workspace',
        editedDaysAgo: 10,
        publicUrl: true,
        blocks: [blocks.paragraph('Logos and boilerplate for journalists.')],
      },
      {
        key: 'old',
        title: 'Offsite 2019',
        parent: 'workspace',
        editedDaysAgo: 4 * 365,
        blocks: [blocks.paragraph('Lisbon.')],
      },
      {
        key: 'salaries',
        title: 'Salary bands',
        parent: 'workspace',
        editedDaysAgo: 1,
        blocks: [blocks.paragraph('Confidential.')],
      },
    ],
  };
}

type NotionErrorBody = {
  object: 'error';
  status: number;
  code: APIErrorCode | 'missing_version';
  message: string;
  request_id: string;
};

function notionError(status: number, code: NotionErrorBody['code'], message: string): FakeResponse {
  const json: NotionErrorBody = { object: 'error', status, code, message, request_id: 'fake-request' };
  return { status, json };
}

export interface NotionFakeOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Search results per page at most (Notion: 100). */
  readonly maxPageSize?: number;
}

export interface NotionFake {
  readonly server: FakeServer;
  readonly url: string;
  readonly token: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly users: FakeUser[];
  idOf(key: string): string;
  /** Creates or changes a page (its last_edited_time becomes now, or `editedDaysAgo` before now). */
  upsertPage(spec: PageSpec): void;
  /** Moves a page under another page (or to the workspace's top level). */
  move(key: string, parent: Parent): void;
  /** Moves a page to the trash, as archiving through the API does. */
  trash(key: string): void;
  share(key: string): void;
  /** Removes a page from the integration's connections: it and what it shared with it are out of reach. */
  unshare(key: string): void;
  setRole(userKey: string, role: FakeUser['role']): void;
  /** The next `times` API requests answer 429 `rate_limited` with Retry-After (seconds). */
  rateLimitNext(times: number, retryAfterSeconds: number): void;
  /** The workspace revokes the integration: its token no longer works. */
  revokeToken(): void;
  /** The integration's capabilities as its settings grant them. */
  setCapabilities(capabilities: { comments?: boolean; userEmails?: boolean; users?: boolean }): void;
  close(): Promise<void>;
}

export async function startNotionFake(options: NotionFakeOptions = {}): Promise<NotionFake> {
  const token = 'ntn_fake_access_token_7f3a';
  const clientId = options.clientId ?? 'notion-client-id';
  const clientSecret = options.clientSecret ?? 'notion-client-secret';
  const maxPageSize = options.maxPageSize ?? MAX_PAGE_SIZE;
  const server = await startFakeServer();
  const seed = seedWorkspace();
  const users = seedUsers();
  const objects = new Map<string, StoredObject>();
  const byId = new Map<string, StoredObject>();
  const shared = new Set(seed.shared);
  const codes = new Map<string, string>();
  let validToken: string | null = token;
  let rateLimited = { times: 0, retryAfter: 0 };
  const capabilities = { comments: true, userEmails: true, users: true };
  const botId = notionId('bot');
  const workspaceId = notionId('workspace');

  const userRef = (key: string) => ({ object: 'user' as const, id: notionId(key) });

  function storeBlocks(specs: readonly BlockSpec[], parentId: string, parentIsPage: boolean, ms: number) {
    return specs.map((spec, index): StoredBlock => {
      const id = notionId(`${parentId}/${index}`);
      const response = spec.build({
        object: 'block',
        id,
        parent: parentIsPage
          ? { type: 'page_id', page_id: parentId }
          : { type: 'block_id', block_id: parentId },
        created_time: minuteOf(ms),
        created_by: userRef('ada'),
        last_edited_time: minuteOf(ms),
        last_edited_by: userRef('ada'),
        has_children: (spec.children?.length ?? 0) > 0,
        in_trash: false,
        archived: false,
      });
      return { response, children: storeBlocks(spec.children ?? [], id, false, ms) };
    });
  }

  function put(kind: StoredObject['kind'], spec: PageSpec | DataSourceSpec, editedMs: number) {
    const id = notionId(spec.key);
    const existing = objects.get(spec.key);
    const stored: StoredObject = {
      key: spec.key,
      kind,
      parent: 'parentPage' in spec ? { page: spec.parentPage } : spec.parent,
      title: spec.title,
      spec,
      createdMs: existing?.createdMs ?? editedMs - DAY_MS,
      editedMs,
      inTrash: false,
      blocks: 'blocks' in spec ? storeBlocks(spec.blocks ?? [], id, true, editedMs) : [],
      comments: 'comments' in spec ? [...(spec.comments ?? [])] : [],
    };
    objects.set(spec.key, stored);
    byId.set(id, stored);
  }

  const seededAt = Date.now();
  for (const spec of seed.dataSources)
    put('data_source', spec, seededAt - (spec.editedDaysAgo ?? 0) * DAY_MS);
  for (const spec of seed.pages) put('page', spec, seededAt - (spec.editedDaysAgo ?? 0) * DAY_MS);

  const parentKey = (object: StoredObject): string | null =>
    object.parent === 'workspace'
      ? null
      : 'page' in object.parent
        ? object.parent.page
        : object.parent.dataSource;

  /** Shared with the integration itself or through an ancestor, and not in the trash (nor an ancestor). */
  function reachable(object: StoredObject): boolean {
    const seen = new Set<string>();
    for (let at: StoredObject | undefined = object; at;) {
      if (at.inTrash || seen.has(at.key)) return false;
      seen.add(at.key);
      if (shared.has(at.key)) return true;
      const up = parentKey(at);
      at = up === null ? undefined : objects.get(up);
    }
    return false;
  }

  function parentOf(object: StoredObject): PageObjectResponse['parent'] {
    if (object.parent === 'workspace') return { type: 'workspace', workspace: true };
    if ('page' in object.parent) return { type: 'page_id', page_id: notionId(object.parent.page) };
    return {
      type: 'data_source_id',
      data_source_id: notionId(object.parent.dataSource),
      database_id: notionId(`db:${object.parent.dataSource}`),
    };
  }

  function slug(object: StoredObject): string {
    return `${object.title.replace(/[^A-Za-z0-9]+/g, '-')}-${notionId(object.key).replaceAll('-', '')}`;
  }

  function pageResponse(object: StoredObject): PageObjectResponse {
    const spec = object.spec as PageSpec;
    return {
      object: 'page',
      id: notionId(object.key),
      created_time: minuteOf(object.createdMs),
      last_edited_time: minuteOf(object.editedMs),
      in_trash: object.inTrash,
      archived: object.inTrash,
      is_archived: object.inTrash,
      is_locked: false,
      url: `https://www.notion.so/${slug(object)}`,
      public_url: spec.publicUrl ? `https://acme.notion.site/${slug(object)}` : null,
      parent: parentOf(object),
      properties: {
        [object.parent !== 'workspace' && 'dataSource' in object.parent ? 'Name' : 'title']: {
          id: 'title',
          type: 'title',
          title: richText(object.title),
        },
        ...spec.properties,
      },
      icon: null,
      cover: null,
      created_by: userRef('ada'),
      last_edited_by: userRef('ada'),
    };
  }

  function dataSourceResponse(object: StoredObject): DataSourceObjectResponse {
    const spec = object.spec as DataSourceSpec;
    return {
      object: 'data_source',
      id: notionId(object.key),
      title: richText(object.title),
      description: richText(spec.description),
      parent: { type: 'database_id', database_id: notionId(`db:${object.key}`) },
      database_parent: { type: 'page_id', page_id: notionId(spec.parentPage) },
      is_inline: true,
      in_trash: object.inTrash,
      archived: object.inTrash,
      created_time: minuteOf(object.createdMs),
      last_edited_time: minuteOf(object.editedMs),
      created_by: userRef('ada'),
      last_edited_by: userRef('ada'),
      properties: { ...spec.properties },
      icon: null,
      cover: null,
      url: `https://www.notion.so/${slug(object)}`,
      public_url: null,
    };
  }

  function userResponse(user: FakeUser): UserObjectResponse {
    return {
      object: 'user',
      id: notionId(user.key),
      name: user.name,
      avatar_url: null,
      type: 'person',
      person: capabilities.userEmails ? { email: user.email } : {},
    };
  }

  const botUser = (): GetSelfResponse => ({
    object: 'user',
    id: botId,
    name: 'Scout',
    avatar_url: null,
    type: 'bot',
    bot: {
      owner: {
        type: 'user',
        user: {
          object: 'user',
          id: notionId(ADA.key),
          name: ADA.name,
          avatar_url: null,
          type: 'person',
          person: { email: ADA.email },
        },
      },
      workspace_id: workspaceId,
      workspace_limits: { max_file_upload_size_in_bytes: 5_368_709_120 },
      workspace_name: 'Acme',
    },
  });

  /** A page of `items` from the one whose id is `cursor` (Notion's cursors are the next item's id). */
  function paginate<T extends { id: string }>(items: T[], cursor: string | null, size: number) {
    const start = cursor ? items.findIndex((item) => item.id === cursor) : 0;
    if (start < 0) return null;
    const page = items.slice(start, start + size);
    const next = items[start + size]?.id ?? null;
    return { results: page, next_cursor: next, has_more: next !== null };
  }

  const pageSizeOf = (value: unknown) =>
    Math.min(maxPageSize, typeof value === 'number' && value > 0 ? value : MAX_PAGE_SIZE);

  type Handler = (request: FakeRequest) => FakeResponse;
  /** Notion's checks before any endpoint: rate limit, bearer token, version header. */
  const api =
    (handler: Handler): Handler =>
    (request) => {
      if (rateLimited.times > 0) {
        rateLimited = { ...rateLimited, times: rateLimited.times - 1 };
        return {
          ...notionError(
            429,
            APIErrorCode.RateLimited,
            'You have been rate limited. Please try again later.',
          ),
          headers: { 'retry-after': String(rateLimited.retryAfter) },
        };
      }
      if (validToken === null || request.headers.authorization !== `Bearer ${validToken}`)
        return notionError(401, APIErrorCode.Unauthorized, 'API token is invalid.');
      if (request.headers['notion-version'] !== NOTION_VERSION)
        return notionError(400, 'missing_version', 'Notion-Version header failed validation.');
      return handler(request);
    };

  const notFound = (id: string) =>
    notionError(
      404,
      APIErrorCode.ObjectNotFound,
      `Could not find block with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
    );

  server.route(
    'GET',
    '/v1/users/me',
    api(() => ({ json: botUser() })),
  );

  server.route(
    'GET',
    '/v1/users',
    api((request) => {
      if (!capabilities.users)
        return notionError(
          403,
          APIErrorCode.RestrictedResource,
          'Insufficient permissions for this endpoint.',
        );
      // Guests are not listed (Notion: "Guests are not included in the response").
      const listed: UserObjectResponse[] = [
        ...users.filter((user) => user.role === 'member').map(userResponse),
        botUser(),
      ];
      const page = paginate(
        listed,
        request.query.get('start_cursor'),
        pageSizeOf(Number(request.query.get('page_size'))),
      );
      if (!page) return notionError(400, APIErrorCode.ValidationError, 'start_cursor is invalid.');
      const json: ListUsersResponse = { object: 'list', type: 'user', user: {}, ...page };
      return { json };
    }),
  );

  server.route(
    'POST',
    '/v1/search',
    api((request) => {
      const body = (request.json() ?? {}) as {
        sort?: { timestamp?: string; direction?: string };
        start_cursor?: string;
        page_size?: number;
      };
      const direction = body.sort?.direction === 'ascending' ? 1 : -1;
      const results = [...objects.values()]
        .filter(reachable)
        .sort((a, b) => direction * (a.editedMs - b.editedMs) || a.key.localeCompare(b.key))
        .map((object) => (object.kind === 'page' ? pageResponse(object) : dataSourceResponse(object)));
      const page = paginate(results, body.start_cursor ?? null, pageSizeOf(body.page_size));
      if (!page) return notionError(400, APIErrorCode.ValidationError, 'start_cursor is invalid.');
      const json: SearchResponse = {
        object: 'list',
        type: 'page_or_data_source',
        page_or_data_source: {},
        ...page,
      };
      return { json };
    }),
  );

  function findBlock(list: StoredBlock[], id: string): StoredBlock | undefined {
    for (const block of list) {
      if (block.response.id === id) return block;
      const inner = findBlock(block.children, id);
      if (inner) return inner;
    }
    return undefined;
  }

  server.route(
    'GET',
    '/v1/blocks/:id/children',
    api((request) => {
      const { id } = request.params;
      let children: StoredBlock[] | undefined;
      const page = byId.get(id ?? '');
      if (page) children = reachable(page) ? page.blocks : undefined;
      else
        for (const object of objects.values()) {
          const block = reachable(object) ? findBlock(object.blocks, id ?? '') : undefined;
          if (block) children = block.children;
        }
      if (!children) return notFound(id ?? '');
      const listed = paginate(
        children.map((child) => child.response),
        request.query.get('start_cursor'),
        pageSizeOf(Number(request.query.get('page_size'))),
      );
      if (!listed) return notionError(400, APIErrorCode.ValidationError, 'start_cursor is invalid.');
      const json: ListBlockChildrenResponse = { object: 'list', type: 'block', block: {}, ...listed };
      return { json };
    }),
  );

  server.route(
    'GET',
    '/v1/comments',
    api((request) => {
      if (!capabilities.comments)
        return notionError(
          403,
          APIErrorCode.RestrictedResource,
          'Insufficient permissions for this endpoint.',
        );
      const id = request.query.get('block_id') ?? '';
      const page = byId.get(id);
      if (!page || !reachable(page)) return notFound(id);
      const comments = page.comments.map((text, index): CommentObjectResponse => ({
        object: 'comment',
        id: notionId(`${page.key}/comment/${index}`),
        parent: { type: 'page_id', page_id: id },
        discussion_id: notionId(`${page.key}/discussion/${index}`),
        created_time: minuteOf(page.editedMs),
        last_edited_time: minuteOf(page.editedMs),
        created_by: userRef('grace'),
        rich_text: richText(text),
        display_name: { type: 'user', resolved_name: 'Grace Hopper' },
      }));
      const listed = paginate(
        comments,
        request.query.get('start_cursor'),
        pageSizeOf(Number(request.query.get('page_size'))),
      );
      if (!listed) return notionError(400, APIErrorCode.ValidationError, 'start_cursor is invalid.');
      const json: ListCommentsResponse = { object: 'list', type: 'comment', comment: {}, ...listed };
      return { json };
    }),
  );

  // The consent page, as if Ada approved the integration at once: back to the redirect URI with a code.
  server.route('GET', '/v1/oauth/authorize', (request) => {
    const redirectUri = request.query.get('redirect_uri') ?? '';
    if (
      request.query.get('client_id') !== clientId ||
      request.query.get('response_type') !== 'code' ||
      request.query.get('owner') !== 'user' ||
      !redirectUri
    )
      return { status: 400, json: { error: 'invalid_request' } };
    const target = new URL(redirectUri);
    target.searchParams.set('code', issueCode(redirectUri));
    target.searchParams.set('state', request.query.get('state') ?? '');
    return { status: 302, headers: { location: target.href } };
  });

  // The code exchange: HTTP Basic client credentials, as Notion documents; a secret in the body is refused.
  server.route('POST', '/v1/oauth/token', (request) => {
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const contentType = request.headers['content-type'] ?? '';
    const body: Record<string, unknown> = contentType.includes('application/json')
      ? ((request.json() ?? {}) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(request.body));
    if (request.headers.authorization !== basic || 'client_secret' in body)
      return { status: 401, json: { error: 'invalid_client' } };
    const code = typeof body.code === 'string' ? body.code : '';
    if (body.grant_type !== 'authorization_code' || codes.get(code) !== body.redirect_uri)
      return { status: 400, json: { error: 'invalid_grant' } };
    codes.delete(code);
    validToken = token;
    const json: OauthTokenResponse = {
      access_token: token,
      token_type: 'bearer',
      refresh_token: 'ntn_fake_refresh_token_91c2',
      bot_id: botId,
      workspace_icon: null,
      workspace_name: 'Acme',
      workspace_id: workspaceId,
      owner: {
        type: 'user',
        user: {
          object: 'user',
          id: notionId(ADA.key),
          name: ADA.name,
          avatar_url: null,
          type: 'person',
          person: { email: ADA.email },
        },
      },
      duplicated_template_id: null,
    };
    return { json };
  });

  function issueCode(redirectUri: string): string {
    const code = `code-${codes.size + 1}-${Date.now()}`;
    codes.set(code, redirectUri);
    return code;
  }

  const must = (key: string) => {
    const object = objects.get(key);
    if (!object) throw new Error(`no Notion object ${key}`);
    return object;
  };

  return {
    server,
    url: server.url,
    token,
    clientId,
    clientSecret,
    users,
    idOf: notionId,
    upsertPage(spec) {
      put('page', spec, Date.now() - (spec.editedDaysAgo ?? 0) * DAY_MS);
    },
    move(key, parent) {
      const object = must(key);
      object.parent = parent;
      object.editedMs = Date.now();
    },
    trash(key) {
      const object = must(key);
      object.inTrash = true;
      object.editedMs = Date.now();
    },
    share(key) {
      shared.add(key);
    },
    unshare(key) {
      shared.delete(key);
    },
    setRole(userKey, role) {
      const user = users.find((candidate) => candidate.key === userKey);
      if (!user) throw new Error(`no Notion user ${userKey}`);
      user.role = role;
    },
    rateLimitNext(times, retryAfterSeconds) {
      rateLimited = { times, retryAfter: retryAfterSeconds };
    },
    revokeToken() {
      validToken = null;
    },
    setCapabilities(next) {
      Object.assign(capabilities, next);
    },
    close: () => server.close(),
  };
}
