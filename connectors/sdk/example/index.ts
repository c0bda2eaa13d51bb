// The example connector of the SDK's tests, against the fake notes API of ./fake.ts. It borrows guru's catalogue
// entry (an AccessControl app of Articles) only because a connector's shortname must come from the catalogue;
// it is not registered anywhere. It shows the shape a real connector takes: schemas for credentials, config,
// vendor answers and the cursor; one derived HTTP client; pages turned into batches whose cursors are checkpoints.
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../../common/strings';
// Through the SDK's entry point, as connectors/<app>/ imports it.
import {
  ORG_PRINCIPAL,
  PUBLIC_PRINCIPAL,
  PermissionMismatchError,
  defineConnector,
  groupPrincipal,
  paginateByCursor,
  paginateByLinkHeader,
  paginateByPageNumber,
  userPrincipal,
  type ConnectorContext,
  type DocumentAcl,
  type GroupMembership,
  type HttpClient,
  type Principal,
  type SourceDocument,
  type SyncBatch,
} from '..';

const SHORTNAME = 'guru';
const PAGE_LIMIT = 50;

const credentialsSchema = z.object({ api_key: z.string().trim().min(1) });
const configSchema = z.object({ baseUrl: z.url().default('https://api.notes.example') });
type Context = ConnectorContext<z.output<typeof credentialsSchema>, z.output<typeof configSchema>>;

const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

const noteSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  author: z.object({ name: z.string(), email: z.email() }),
  folder_id: z.string().nullable(),
  tags: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  visibility: z.enum(['public', 'workspace', 'restricted']).optional(),
  shared_with: z.object({ users: z.array(z.string()), groups: z.array(z.string()) }).optional(),
});
type Note = z.output<typeof noteSchema>;
const sharingSchema = noteSchema.pick({ id: true, author: true, visibility: true, shared_with: true });
type Sharing = z.output<typeof sharingSchema>;
const permissionsSchema = z.object({ permissions: z.array(sharingSchema) });

const meSchema = z.object({
  user: z.object({ id: z.string(), email: z.email(), role: z.string() }),
  workspace: z.object({ name: z.string() }),
});
const notesPageSchema = z.object({ notes: z.array(noteSchema), next_cursor: z.string().nullable() });
const changeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('note.updated'), id: z.string(), at: z.string(), note: noteSchema }),
  z.object({ type: z.literal('note.deleted'), id: z.string(), at: z.string() }),
]);
const changesPageSchema = z.object({ changes: z.array(changeSchema), has_more: z.boolean() });
const groupsPageSchema = z.object({
  groups: z.array(
    z.object({
      id: z.string(),
      members: z.array(
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('user'), email: z.email() }),
          z.object({ type: z.literal('group'), id: z.string() }),
        ]),
      ),
    }),
  ),
  next_cursor: z.string().nullable(),
});

/** Versioned so a future change of shape can recognise old cursors rather than misread them. */
const cursorSchema = z.discriminatedUnion('phase', [
  /** Listing every note, newest first; `next` is the page token still to fetch. */
  z.object({ v: z.literal(1), phase: z.literal('full'), startedAt: z.string(), next: z.string().nullable() }),
  /** Following the change feed from `since`, `page` being the page still to fetch. */
  z.object({ v: z.literal(1), phase: z.literal('changes'), since: z.string(), page: z.number().int() }),
]);
type FullCursor = Extract<z.output<typeof cursorSchema>, { phase: 'full' }>;
type ChangesCursor = Extract<z.output<typeof cursorSchema>, { phase: 'changes' }>;

function api(ctx: Context): HttpClient {
  return ctx.http.with({
    baseUrl: ctx.config.baseUrl,
    headers: { authorization: `Bearer ${ctx.credentials.api_key}` },
  });
}

function aclOf(note: Sharing): Principal[] | null {
  switch (note.visibility) {
    case 'public':
      return [PUBLIC_PRINCIPAL];
    case 'workspace':
      return [ORG_PRINCIPAL];
    case 'restricted':
      return [
        userPrincipal(note.author.email),
        ...(note.shared_with?.users ?? []).map(userPrincipal),
        ...(note.shared_with?.groups ?? []).map((id) => groupPrincipal(SHORTNAME, id)),
      ];
    default:
      // The API cannot say who may read it: the engine keeps it private to the connection's owner.
      return null;
  }
}

function toDocument(note: Note, ctx: Context): SourceDocument {
  return {
    externalId: note.id,
    title: note.title || 'Untitled',
    url: `${ctx.config.baseUrl.replace(/\/+$/, '')}/notes/${encodeURIComponent(note.id)}`,
    body: note.body,
    author: { name: note.author.name, email: note.author.email.toLowerCase() },
    objectType: 'Articles',
    fileType: 'md',
    createdTime: note.created_at,
    modifiedTime: note.updated_at,
    acl: aclOf(note),
    extra: { tags: note.tags },
    ...(note.folder_id === null ? {} : { parentExternalId: note.folder_id }),
  };
}

async function* listNotes(ctx: Context, cursor: FullCursor): AsyncGenerator<SyncBatch> {
  const caughtUp: ChangesCursor = { v: 1, phase: 'changes', since: cursor.startedAt, page: 1 };
  const pages = paginateByCursor(api(ctx), {
    path: '/api/notes',
    request: { query: { limit: PAGE_LIMIT } },
    schema: notesPageSchema,
    items: (page) => page.notes,
    nextCursor: (page) => page.next_cursor,
    startCursor: cursor.next,
  });
  for await (const page of pages) {
    // Newest first, so the first note older than the window ends the listing.
    const inWindow = page.items.filter((note) => note.updated_at >= ctx.syncWindowStart);
    const done = page.next === null || inWindow.length < page.items.length;
    const oldest = inWindow.at(-1)?.updated_at;
    yield {
      documents: inWindow.map((note) => toDocument(note, ctx)),
      cursor: done ? caughtUp : { ...cursor, next: page.next },
      progress: { syncedFrom: done ? ctx.syncWindowStart : oldest },
    };
    if (done) return;
  }
}

async function* followChanges(ctx: Context, cursor: ChangesCursor): AsyncGenerator<SyncBatch> {
  let newest = cursor.since;
  const pages = paginateByPageNumber(api(ctx), {
    path: '/api/changes',
    request: { query: { since: cursor.since } },
    pageSize: PAGE_LIMIT,
    startPage: cursor.page,
    schema: changesPageSchema,
    items: (page) => page.changes,
    hasMore: (page) => page.has_more,
  });
  for await (const page of pages) {
    for (const change of page.items) if (change.at > newest) newest = change.at;
    yield {
      documents: page.items.flatMap((change) =>
        change.type === 'note.updated' ? [toDocument(change.note, ctx)] : [],
      ),
      deletedExternalIds: page.items.flatMap((change) => (change.type === 'note.deleted' ? [change.id] : [])),
      // Mid-feed the page number holds the place; once through, the newest change seen is the next start.
      cursor:
        page.next === null
          ? { v: 1, phase: 'changes', since: newest, page: 1 }
          : { ...cursor, page: page.next },
    };
  }
}

function fullSync(ctx: Context): AsyncGenerator<SyncBatch> {
  return listNotes(ctx, { v: 1, phase: 'full', startedAt: ctx.now().toISOString(), next: null });
}

export const notesConnector = defineConnector({
  shortname: SHORTNAME,
  installPayload: 'apiKey',
  credentialsSchema,
  configSchema,
  credentialFields: [{ key: 'api_key', label: 'API key', secret: true }],
  credentialName: CREDENTIAL_NAMES.apiKey,
  limits: { concurrency: 2, rate: { requests: 20, intervalMs: 1000 } },

  async validate(ctx) {
    const me = await api(ctx).json('/api/me', meSchema);
    if (me.user.role !== 'admin')
      throw new PermissionMismatchError('The API key must belong to a workspace admin.');
    return { workspaceName: me.workspace.name, appUserId: me.user.id, email: me.user.email };
  },

  fullSync,

  async *incrementalSync(ctx, saved) {
    const cursor = cursorSchema.safeParse(saved);
    if (!cursor.success) {
      // A cursor this version cannot read: start over rather than guess where it pointed.
      ctx.logger.warn({ connector: SHORTNAME }, 'unreadable cursor, running a full sync');
      yield* fullSync(ctx);
      return;
    }
    if (cursor.data.phase === 'full') {
      yield* listNotes(ctx, cursor.data);
      yield* followChanges(ctx, { v: 1, phase: 'changes', since: cursor.data.startedAt, page: 1 });
      return;
    }
    yield* followChanges(ctx, cursor.data);
  },

  async *listIds(ctx) {
    const pages = paginateByLinkHeader(api(ctx), {
      path: '/api/note-ids',
      schema: z.array(z.string()),
      items: (page) => page,
    });
    for await (const page of pages) yield [...page.items];
  },

  async *permissions(ctx) {
    const pages = paginateByCursor(api(ctx), {
      path: '/api/groups',
      schema: groupsPageSchema,
      items: (page) => page.groups,
      nextCursor: (page) => page.next_cursor,
    });
    for await (const page of pages) {
      yield page.items.map((group): GroupMembership => ({
        group: groupPrincipal(SHORTNAME, group.id),
        members: group.members.map((member) =>
          member.type === 'user' ? userPrincipal(member.email) : groupPrincipal(SHORTNAME, member.id),
        ),
      }));
    }
  },

  async documentAcls(ctx, externalIds) {
    const answer = await api(ctx).json('/api/notes/permissions', permissionsSchema, {
      query: { ids: externalIds.join(',') },
    });
    return answer.permissions.map((note): DocumentAcl => ({ externalId: note.id, acl: aclOf(note) }));
  },
});
