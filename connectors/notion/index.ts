// The Notion connector: pages, databases (each row a document with its properties as text) and page comments,
// read through @notionhq/client with its requests sent by the connection's HttpClient (vendorFetch), so Notion's
// ~3 requests/s, its 429 Retry-After, 401 on a revoked token and timeouts follow the SDK's rules.
//
// Notion's only change feed is search sorted by last_edited_time, and those times are rounded down to the minute.
// A sync is therefore a walk down that listing to a floor: a full sync walks to the three-year window, later ones
// to the newest time the previous walk saw. At the floor's minute an edit made after the last walk looks the same
// as what it saw, so the walk also keeps a fingerprint of each document it delivered at that minute and delivers
// again only what changed. Who may read what, and why it is every member of the workspace, is in README.md.
import { createHash } from 'node:crypto';
import {
  Client,
  LogLevel,
  isFullBlock,
  isFullDataSource,
  isFullPage,
  isFullUser,
  type DataSourceObjectResponse,
  type ListUsersResponse,
  type PageObjectResponse,
} from '@notionhq/client';
import { z } from 'zod';
import { CREDENTIAL_NAMES, notion as notionStrings } from '../../common/strings';
import {
  HttpStatusError,
  NotFoundError,
  PermissionMismatchError,
  defineConnector,
  groupPrincipal,
  userPrincipal,
  vendorFetch,
  type ConnectorContext,
  type DocumentAcl,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import {
  blockLine,
  childrenAreDocuments,
  dataSourceTitle,
  pageTitle,
  plainText,
  propertyLines,
} from './text';

const SHORTNAME = 'notion';
export const NOTION_API_URL = 'https://api.notion.com';

/**
 * Every document's readers: the workspace's members as users.list names them (guests are never listed). The
 * engine namespaces the group per connection, so two workspaces' members never mix.
 */
export const MEMBERS_GROUP = groupPrincipal(SHORTNAME, 'members');

/** Nesting past this is left out: deep toggles are rare, and each level costs a request per block with children. */
export const MAX_BLOCK_DEPTH = 8;
/** A page's blocks and text beyond these are left out, so one huge page cannot hold a sync for an hour. */
export const MAX_BLOCKS = 5000;
export const MAX_BODY_CHARS = 500_000;
/** The HttpClient bounds each attempt; this bounds one SDK call with its retries and Retry-After waits. */
const CLIENT_TIMEOUT_MS = 15 * 60_000;
const MINUTE_MS = 60_000;

const credentialsSchema = z.object({
  access_token: z.string().trim().min(1),
  refresh_token: z.string().nullish(),
  bot_id: z.string().optional(),
  workspace_id: z.string().optional(),
  workspace_name: z.string().nullish(),
});

const fingerprintsSchema = z.record(z.string(), z.string());

/**
 * A walk down search's listing, newest first. Versioned, so a later shape can recognise old cursors.
 * `floor`: stop below this last_edited_time (null: a full sync, down to the three-year window); `floorSeen`: the
 * fingerprints delivered at the floor's minute. `below` and `doneAtBelow`: where a walk cut short resumes (items
 * edited after `below` are skipped: delivered already, or changed since and left to the next walk). `mark` and
 * `seen`: the newest time this walk met and the fingerprints at it, the next walk's floor.
 */
const cursorSchema = z.object({
  v: z.literal(1),
  floor: z.iso.datetime({ offset: true }).nullable(),
  floorSeen: fingerprintsSchema,
  below: z.iso.datetime({ offset: true }).nullable(),
  doneAtBelow: z.array(z.string()),
  mark: z.iso.datetime({ offset: true }).nullable(),
  seen: fingerprintsSchema,
});
type WalkCursor = z.output<typeof cursorSchema>;

const FULL_WALK: WalkCursor = {
  v: 1,
  floor: null,
  floorSeen: {},
  below: null,
  doneAtBelow: [],
  mark: null,
  seen: {},
};

/** What a trashed or vanished item's fingerprint is, so it is reported once. */
const GONE = 'gone';

/** The connector against a Notion origin: api.notion.com in production, a fake in tests. */
export function notionConnectorFor(apiUrl: string) {
  const configSchema = z.object({
    baseUrl: z.url().default(apiUrl),
    /** Documents per batch: each costs a few requests at ~3/s, and a batch should commit well inside a minute. */
    batchSize: z.number().int().min(1).max(100).default(20),
    /** Results per search request (Notion allows 100). */
    pageSize: z.number().int().min(1).max(100).default(100),
  });
  type Context = ConnectorContext<z.output<typeof credentialsSchema>, z.output<typeof configSchema>>;

  function notionClient(ctx: Context): Client {
    const http = ctx.http.with({
      baseUrl: ctx.config.baseUrl,
      credentialName: CREDENTIAL_NAMES.credentials,
      // 403 is restricted_resource: one object or capability, not the token. Callers decide what it means.
      classifyAuthFailure: (failure) =>
        failure.status === 401 ? { kind: 'invalidCredentials' } : { kind: 'httpError' },
    });
    return new Client({
      auth: ctx.credentials.access_token,
      baseUrl: ctx.config.baseUrl,
      fetch: vendorFetch(http),
      retry: false,
      timeoutMs: CLIENT_TIMEOUT_MS,
      logLevel: LogLevel.WARN,
      logger: (level, message, extraInfo) => ctx.logger.debug({ level, ...extraInfo }, `notion: ${message}`),
    });
  }

  async function usersPage(notion: Client, cursor: string | undefined): Promise<ListUsersResponse> {
    try {
      return await notion.users.list({ start_cursor: cursor, page_size: 100 });
    } catch (error) {
      if (error instanceof HttpStatusError && error.status === 403)
        throw new PermissionMismatchError(notionStrings.USER_INFO_REQUIRED, { cause: error });
      throw error;
    }
  }

  function memberEmails(page: ListUsersResponse): string[] {
    return page.results.flatMap((user) =>
      user.type === 'person' && user.person.email ? [user.person.email] : [],
    );
  }

  /** A page's blocks in order, one line each, children indented under their parent, within the caps. */
  async function blockLines(notion: Client, pageId: string): Promise<string[]> {
    const lines: string[] = [];
    let blocks = 0;
    let chars = 0;
    const full = () => blocks >= MAX_BLOCKS || chars >= MAX_BODY_CHARS;
    const visit = async (parentId: string, depth: number): Promise<void> => {
      let cursor: string | undefined;
      let listNumber = 0;
      do {
        const page = await notion.blocks.children.list({
          block_id: parentId,
          start_cursor: cursor,
          page_size: 100,
        });
        for (const block of page.results) {
          if (full()) return;
          if (!isFullBlock(block)) continue;
          listNumber = block.type === 'numbered_list_item' ? listNumber + 1 : 0;
          blocks += 1;
          const line = blockLine(block, listNumber);
          if (line !== null && line.trim() !== '') {
            const indented = `${'  '.repeat(depth)}${line}`;
            lines.push(indented);
            chars += indented.length + 1;
          }
          if (block.has_children && !childrenAreDocuments(block) && depth + 1 < MAX_BLOCK_DEPTH)
            await visit(block.id, depth + 1);
        }
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined && !full());
    };
    await visit(pageId, 0);
    return lines;
  }

  /** Comments on the page itself. Without the read-comments capability Notion answers 403: index without them. */
  async function commentLines(
    notion: Client,
    ctx: Context,
    pageId: string,
    run: { commentsRefused: boolean },
  ): Promise<string[]> {
    if (run.commentsRefused) return [];
    const lines: string[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await notion.comments.list({ block_id: pageId, start_cursor: cursor, page_size: 100 });
        for (const comment of page.results) lines.push(plainText(comment.rich_text));
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    } catch (error) {
      if (!(error instanceof HttpStatusError) || error instanceof NotFoundError || error.status !== 403)
        throw error;
      run.commentsRefused = true;
      ctx.logger.warn(
        { connector: SHORTNAME },
        'the integration may not read comments; indexing without them',
      );
      return [];
    }
    return lines;
  }

  function parentIdOf(parent: PageObjectResponse['parent']): string | undefined {
    if (parent.type === 'page_id') return parent.page_id;
    if (parent.type === 'data_source_id') return parent.data_source_id;
    if (parent.type === 'database_id') return parent.database_id;
    return undefined;
  }

  async function pageDocument(
    notion: Client,
    ctx: Context,
    page: PageObjectResponse,
    run: { commentsRefused: boolean },
  ): Promise<SourceDocument> {
    const row = page.parent.type === 'data_source_id';
    const content = await blockLines(notion, page.id);
    const comments = await commentLines(notion, ctx, page.id, run);
    const body = [
      ...(row ? propertyLines(page) : []),
      ...content,
      ...(comments.length > 0 ? ['', 'Comments:', ...comments] : []),
    ].join('\n');
    const parent = parentIdOf(page.parent);
    return {
      externalId: page.id,
      title: pageTitle(page),
      url: page.url,
      body,
      author: {},
      objectType: 'Files',
      fileType: 'page',
      createdTime: new Date(page.created_time),
      modifiedTime: new Date(page.last_edited_time),
      acl: [MEMBERS_GROUP],
      extra: { kind: row ? 'database row' : 'page' },
      ...(parent === undefined ? {} : { parentExternalId: parent }),
    };
  }

  function dataSourceDocument(dataSource: DataSourceObjectResponse): SourceDocument {
    const description = plainText(dataSource.description).trim();
    const columns = Object.values(dataSource.properties).map((property) => property.name);
    const parent = dataSource.database_parent;
    return {
      externalId: dataSource.id,
      title: dataSourceTitle(dataSource),
      url: dataSource.url,
      body: [...(description ? [description] : []), `Properties: ${columns.join(', ')}`].join('\n'),
      author: {},
      objectType: 'Files',
      fileType: 'database',
      createdTime: new Date(dataSource.created_time),
      modifiedTime: new Date(dataSource.last_edited_time),
      acl: [MEMBERS_GROUP],
      extra: { kind: 'database' },
      ...(parent.type === 'page_id' ? { parentExternalId: parent.page_id } : {}),
    };
  }

  function fingerprint(document: SourceDocument): string {
    const { title, url, body, parentExternalId, extra } = document;
    return createHash('sha256')
      .update(JSON.stringify([title, url, body, parentExternalId ?? null, extra]))
      .digest('base64url')
      .slice(0, 16);
  }

  /** One walk (see cursorSchema); answers the cursor the next walk starts from. */
  async function* walk(ctx: Context, from: WalkCursor): AsyncGenerator<SyncBatch, WalkCursor> {
    const notion = notionClient(ctx);
    const run = { commentsRefused: false };
    const startedAt = ctx.now().getTime();
    const isFull = from.floor === null;
    const floorMs = from.floor === null ? ctx.syncWindowStart.getTime() : Date.parse(from.floor);
    let state = from;
    let documents: SourceDocument[] = [];
    let deleted: string[] = [];
    const progress = () =>
      isFull && state.below !== null
        ? { syncedFrom: new Date(Math.max(Date.parse(state.below), floorMs)) }
        : undefined;
    const take = (cursor: WalkCursor): SyncBatch => {
      const batch = { documents, deletedExternalIds: deleted, cursor, progress: progress() };
      documents = [];
      deleted = [];
      return batch;
    };

    let searchCursor: string | undefined;
    walking: for (;;) {
      const page = await notion.search({
        sort: { timestamp: 'last_edited_time', direction: 'descending' },
        page_size: ctx.config.pageSize,
        start_cursor: searchCursor,
      });
      for (const result of page.results) {
        // A partial object carries no timestamps to place it; Notion lists full ones to integrations.
        if (!isFullPage(result) && !isFullDataSource(result)) continue;
        const editedMs = Date.parse(result.last_edited_time);
        if (editedMs < floorMs) break walking;
        const belowMs = state.below === null ? null : Date.parse(state.below);
        if (
          belowMs !== null &&
          (editedMs > belowMs || (editedMs === belowMs && state.doneAtBelow.includes(result.id)))
        )
          continue;

        let document: SourceDocument | null = null;
        if (!result.in_trash) {
          try {
            document = isFullPage(result)
              ? await pageDocument(notion, ctx, result, run)
              : dataSourceDocument(result);
          } catch (error) {
            // Trashed or unshared between search and the fetch of its blocks: gone, as far as we may know.
            if (!(error instanceof NotFoundError)) throw error;
          }
        }
        const print = document === null ? GONE : fingerprint(document);
        const unchanged = !isFull && editedMs === floorMs && from.floorSeen[result.id] === print;
        if (!unchanged) {
          if (document === null) deleted.push(result.id);
          else documents.push(document);
        }
        const mark = state.mark ?? result.last_edited_time;
        state = {
          ...state,
          mark,
          seen: Date.parse(mark) === editedMs ? { ...state.seen, [result.id]: print } : state.seen,
          below: result.last_edited_time,
          doneAtBelow: belowMs === editedMs ? [...state.doneAtBelow, result.id] : [result.id],
        };
        if (documents.length + deleted.length >= ctx.config.batchSize) yield take(state);
      }
      if (!page.has_more || page.next_cursor === null) break;
      searchCursor = page.next_cursor;
    }

    const next: WalkCursor = {
      ...FULL_WALK,
      floor:
        state.mark ?? from.floor ?? new Date(Math.floor(startedAt / MINUTE_MS) * MINUTE_MS).toISOString(),
      floorSeen: state.mark === null ? from.floorSeen : state.seen,
    };
    state = next;
    yield { ...take(next), progress: isFull ? { syncedFrom: ctx.syncWindowStart } : undefined };
    return next;
  }

  /** Every page and database the integration can reach now, whatever its age: search lists nothing else. */
  async function* reachableIds(ctx: Context): AsyncGenerator<string[]> {
    const notion = notionClient(ctx);
    let cursor: string | undefined;
    do {
      const page = await notion.search({ page_size: 100, start_cursor: cursor });
      yield page.results.flatMap((result) =>
        (isFullPage(result) || isFullDataSource(result)) && !result.in_trash ? [result.id] : [],
      );
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  // One listing per permission sync, however many batches of ids the engine asks about (they share a context).
  const reachableByRun = new WeakMap<object, Promise<Set<string>>>();
  async function reachableSet(ctx: Context): Promise<Set<string>> {
    const ids = new Set<string>();
    for await (const page of reachableIds(ctx)) for (const id of page) ids.add(id);
    return ids;
  }

  return defineConnector({
    shortname: SHORTNAME,
    installPayload: 'oauth',
    credentialsSchema,
    configSchema,
    credentialFields: [],
    credentialName: CREDENTIAL_NAMES.credentials,
    // Notion: "an average of three requests per second", bursts above it answered 429 with Retry-After.
    limits: { concurrency: 3, rate: { requests: 3, intervalMs: 1000 } },
    oauth: {
      authorizeUrl: `${apiUrl}/v1/oauth/authorize`,
      tokenUrl: `${apiUrl}/v1/oauth/token`,
      // Notion has no scopes: the integration's capabilities are set in its settings, pages chosen at consent.
      scopes: [],
      pkce: false,
      authorizeParams: { owner: 'user' },
      tokenAuth: 'basic',
    },

    async validate(ctx) {
      const notion = notionClient(ctx);
      const me = await notion.users.me({});
      // Without members' emails nobody could be given access: every document would be readable by no one.
      const users = await usersPage(notion, undefined);
      if (memberEmails(users).length === 0)
        throw new PermissionMismatchError(notionStrings.USER_INFO_REQUIRED);
      const bot = me.type === 'bot' && 'owner' in me.bot ? me.bot : null;
      const owner = bot?.owner.type === 'user' && isFullUser(bot.owner.user) ? bot.owner.user : null;
      const email = owner?.type === 'person' ? owner.person.email : undefined;
      return {
        workspaceName: bot?.workspace_name ?? undefined,
        appUserId: me.id,
        ...(email ? { email: email.toLowerCase() } : {}),
      };
    },

    fullSync: (ctx) => walk(ctx, FULL_WALK),

    async *incrementalSync(ctx, saved) {
      const parsed = cursorSchema.safeParse(saved);
      if (!parsed.success) {
        ctx.logger.warn({ connector: SHORTNAME }, 'unreadable cursor, running a full sync');
        yield* walk(ctx, FULL_WALK);
        return;
      }
      let cursor = parsed.data;
      // A walk cut short finishes first; the next walk then takes what changed meanwhile.
      if (cursor.below !== null) cursor = yield* walk(ctx, cursor);
      yield* walk(ctx, cursor);
    },

    listIds: reachableIds,

    async *permissions(ctx) {
      const notion = notionClient(ctx);
      let cursor: string | undefined;
      do {
        const page = await usersPage(notion, cursor);
        yield [{ group: MEMBERS_GROUP, members: memberEmails(page).map(userPrincipal) }];
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    },

    // Sharing with the integration leaves no trace in search's order: a page unshared (or trashed) just stops
    // being listed. Its readers are then nobody, so the permission sync removes it without waiting for pruning.
    async documentAcls(ctx, externalIds) {
      let listing = reachableByRun.get(ctx);
      if (!listing) {
        listing = reachableSet(ctx);
        reachableByRun.set(ctx, listing);
      }
      const reachable = await listing;
      return externalIds.map((externalId): DocumentAcl => ({
        externalId,
        acl: reachable.has(externalId) ? [MEMBERS_GROUP] : [],
      }));
    },
  });
}

export const notionConnector = notionConnectorFor(NOTION_API_URL);
