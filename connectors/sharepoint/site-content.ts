// What a SharePoint site holds beside its document libraries (./graph.ts): site pages, with the text of their
// text web parts, and the items of its lists, each item's columns as 'Name: value' lines.
//
// Who may read them. A site page is a file of its site's Site Pages library, whose driveItem's permissions
// Graph lists: the effective ones, without `inheritedFrom` (Graph documents that SharePoint libraries leave
// it out). A page granting all that its library's root grants inherits them; those grants are the site's, and
// the page is readable by the principal `site:{siteId}` (and whoever else it grants), whose members the
// permission sync sets to the Microsoft 365 group a team site belongs to (GET /groups/{id}/sites/root): its
// members, nested groups expanded as every Entra group's are, and its owners. A page lacking one of the
// root's grants has its own permissions (broken inheritance) and is readable by what they grant, mapped as a
// library file's (./graph.ts), its SharePoint groups, whose members Graph cannot list, admitting nobody. A
// page whose permissions Graph refuses (403) or answers in a shape we do not read is readable by nobody, and
// each incremental sync reads it again until they can be read (one the permission sync finds so leaves the
// index until its next edit or a full sync). A change of a page's permissions leaves its lastModifiedDateTime
// alone, so each incremental sync also follows the Site Pages library's drive delta with Graph's
// `Prefer: deltashowsharingchanges` (and the two preferences Graph requires with it), in which a page whose
// sharing changed is listed, and reads that page again; a delta token Graph no longer follows (410) has every
// page read again, since the changes it would have shown are unknown. Graph documents that sharing changes are
// reported fully only to an app granted Sites.FullControl.All; the permission sync, which reads every indexed
// page's permissions again, stays the backstop. Reading permissions is a listing per page:
// Graph shows no sign of a page having permissions of its own (SharePoint REST's HasUniqueRoleAssignments has
// no Graph field), so a sync pays one per page it reads and one of the library's root per site with such
// pages. List items are readable by nobody (a member's own connection keeps them, private to that member): a
// generic list's items are no driveItems, and the /permissions of a list or list item, in v1.0 and beta
// alike, name only the apps granted the Selected scopes, so Graph cannot tell an item narrowed below its site
// from one that is not. Limits, all on the side of hiding but the last: people added to the site's own
// SharePoint groups or shared the site directly, the whole organisation that a public group's site admits,
// and every reader of a site of no Microsoft 365 group (a communication site, a classic site, a subsite) are
// not readers; and a Site Pages library narrowed as a whole below its site still passes its site's readers to
// the pages that inherit from it, since Graph lists no people's permissions of a site to compare the
// library's with.
import { z } from 'zod';
import {
  FatalSourceError,
  NotFoundError,
  PermissionMismatchError,
  groupPrincipal,
  userPrincipal,
  type ConnectorContext,
  type DocumentAcl,
  type GroupMembership,
  type GroupPrincipal,
  type Principal,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { htmlToDocument } from '../sdk/html';
import { DIRECTORY_PAGE, type Graph } from '../microsoft/app-only';
import { odataPageSchema } from '../microsoft/graph';
import { aclOf, itemPermissions, type GraphPermission } from './graph';

/** Pages read with their canvas per batch. */
const PAGES_PER_BATCH = 20;

export const siteSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  name: z.string().nullish(),
});
export type SiteRef = z.output<typeof siteSchema>;

/** Every site the caller may read: all of them for an app-only token, those the member can reach for a delegated one. */
export async function listSites(graph: Graph): Promise<SiteRef[]> {
  const sites: SiteRef[] = [];
  for await (const batch of graph.pages('/sites', siteSchema, {
    search: '*',
    $select: 'id,displayName,name',
  }))
    sites.push(...batch);
  return sites;
}

export const siteName = (site: SiteRef) => site.displayName || site.name || 'SharePoint';

/** The readers of a site's pages and list items, whose members the permission sync sets. */
export const siteReaders = (siteId: string): GroupPrincipal => groupPrincipal('sharepoint', `site:${siteId}`);

// ── Graph's documented shapes ───────────────────────────────────────────────────────────────────────────

const iso = z.iso.datetime({ offset: true }).nullish();
const createdBySchema = z
  .object({ user: z.object({ displayName: z.string().nullish() }).nullish() })
  .nullish();

const pageSchema = z.object({
  id: z.string(),
  title: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  webUrl: z.string().nullish(),
  createdDateTime: iso,
  lastModifiedDateTime: iso,
  createdBy: createdBySchema,
});
type PageListing = z.output<typeof pageSchema>;

/** Only text web parts carry innerHtml; the others (images, embeds, lists) have no text of their own. */
const webPartsSchema = z.array(z.object({ innerHtml: z.string().nullish() })).nullish();
const pageWithCanvasSchema = pageSchema.extend({
  canvasLayout: z
    .object({
      horizontalSections: z
        .array(z.object({ columns: z.array(z.object({ webparts: webPartsSchema })).nullish() }))
        .nullish(),
      verticalSection: z.object({ webparts: webPartsSchema }).nullish(),
    })
    .nullish(),
});

const listSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  name: z.string().nullish(),
  list: z.object({ hidden: z.boolean().nullish(), template: z.string().nullish() }).nullish(),
});
type ListRef = z.output<typeof listSchema>;

const listItemSchema = z.object({
  id: z.string(),
  webUrl: z.string().nullish(),
  createdDateTime: iso,
  lastModifiedDateTime: iso,
  createdBy: createdBySchema,
  fields: z.record(z.string(), z.unknown()).nullish(),
  deleted: z.object({ state: z.string().nullish() }).nullish(),
});
type ListItem = z.output<typeof listItemSchema>;
const listDeltaSchema = odataPageSchema(listItemSchema);

/** A Site Pages library's drive delta entry: the page's driveItem, naming its list item (the page's id). */
const pagesDeltaSchema = odataPageSchema(
  z.object({
    id: z.string(),
    sharepointIds: z.object({ listItemUniqueId: z.string().nullish() }).nullish(),
    deleted: z.object({ state: z.string().nullish() }).nullish(),
  }),
);
/** Graph shows sharing changes in a drive delta only with all three preferences, in one header. */
const SHARING_CHANGES = 'deltashowremovedasdeleted, deltatraversepermissiongaps, deltashowsharingchanges';

const groupSchema = z.object({ id: z.string(), groupTypes: z.array(z.string()).nullish() });
const ownerSchema = z.object({ id: z.string() });

// ── External ids ────────────────────────────────────────────────────────────────────────────────────────

/** Site ids ('host,collection,web') and Graph's page, list and item ids hold no ':'. */
const pageId = (siteId: string, id: string) => `page:${siteId}:${id}`;
const itemId = (siteId: string, listId: string, id: string) => `listitem:${siteId}:${listId}:${id}`;

/** What a page's or list item's external id names; undefined for any other (a drive's file). */
function contentRef(externalId: string) {
  const [kind, siteId, ...rest] = externalId.split(':');
  if (!siteId) return undefined;
  if (kind === 'page' && rest.length === 1) return { kind, siteId, pageId: rest[0]! } as const;
  if (kind === 'listitem' && rest.length === 2) return { kind, siteId } as const;
  return undefined;
}

/** The site of a page's or list item's external id; undefined for any other (a drive's file). */
export const siteOfContent = (externalId: string): string | undefined => contentRef(externalId)?.siteId;

// ── Readers ─────────────────────────────────────────────────────────────────────────────────────────────

/** A site's Site Pages library: its list, and what its root grants, which a page that inherits grants too. */
interface PagesLibrary {
  readonly listId: string;
  readonly root: readonly GraphPermission[];
}

const listPath = (siteId: string, listId: string) =>
  `/sites/${encodeURIComponent(siteId)}/lists/${encodeURIComponent(listId)}`;

/** Undefined for a site without one; a root whose permissions cannot be read grants nothing a page could inherit. */
async function pagesLibrary(
  graph: Graph,
  siteId: string,
  listId: string | undefined,
): Promise<PagesLibrary | undefined> {
  if (listId === undefined) return undefined;
  const root = await itemPermissions(graph, `${listPath(siteId, listId)}/drive/root/permissions`);
  return { listId, root: root ?? [] };
}

/** Who a grant admits and how, its id left out: what a page inheriting a grant shares with its library's root. */
function grantKey(permission: GraphPermission): string {
  const who = [permission.grantedToV2, ...(permission.grantedToIdentitiesV2 ?? [])].map((set) =>
    [set?.user?.id, set?.group?.id, set?.siteUser?.id, set?.siteGroup?.id].map((id) => id ?? null),
  );
  const roles = [...(permission.roles ?? [])].sort();
  return JSON.stringify([roles, permission.link?.scope ?? null, permission.link?.type ?? null, who]);
}

/** A page's readers now, as the header says; undefined when the page is gone. */
async function pageReaders(
  graph: Graph,
  siteId: string,
  library: PagesLibrary | undefined,
  pageId: string,
): Promise<Principal[] | undefined> {
  if (!library) return [];
  const path = `${listPath(siteId, library.listId)}/items/${encodeURIComponent(pageId)}/driveItem/permissions`;
  const permissions = await itemPermissions(graph, path);
  if (permissions === undefined) return undefined;
  if (permissions === null) return [];
  const directory = await graph.directory();
  const inherited = new Set(library.root.map(grantKey));
  const granted = new Set(permissions.map(grantKey));
  if (inherited.size === 0 || [...inherited].some((key) => !granted.has(key)))
    return aclOf(graph.shortname, library.listId, permissions, directory);
  const more = permissions.filter((permission) => !inherited.has(grantKey(permission)));
  return [siteReaders(siteId), ...aclOf(graph.shortname, library.listId, more, directory)];
}

// ── Documents ───────────────────────────────────────────────────────────────────────────────────────────

const webUrlOf = (url: string | null | undefined) => (url && /^https?:/.test(url) ? url : undefined);

/** The text web parts' text in page order: the horizontal sections column by column, then the vertical one. */
function pageText(page: z.output<typeof pageWithCanvasSchema>): string {
  const canvas = page.canvasLayout;
  const parts = [
    ...(canvas?.horizontalSections ?? []).flatMap((section) =>
      (section.columns ?? []).flatMap((column) => column.webparts ?? []),
    ),
    ...(canvas?.verticalSection?.webparts ?? []),
  ];
  return parts
    .map((part) => (part.innerHtml ? htmlToDocument(part.innerHtml).text.trim() : ''))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** Columns every item has, which say nothing of its content (ids, bookkeeping, links to forms). */
const BOOKKEEPING_FIELDS = new Set([
  'id',
  'ContentType',
  'Created',
  'Modified',
  'Attachments',
  'Edit',
  'LinkTitle',
  'LinkTitleNoMenu',
  'ItemChildCount',
  'FolderChildCount',
  'DocIcon',
]);

/** The item's columns as 'Name: value' lines; values that are objects (lookups, locations) are left out. */
function fieldLines(fields: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (
      BOOKKEEPING_FIELDS.has(name) ||
      name.startsWith('@') ||
      name.startsWith('_') ||
      name.endsWith('LookupId')
    )
      continue;
    const shown = Array.isArray(value)
      ? value.filter((entry) => ['string', 'number', 'boolean'].includes(typeof entry)).join(', ')
      : ['string', 'number', 'boolean'].includes(typeof value)
        ? String(value)
        : '';
    if (shown.trim() !== '') lines.push(`${name}: ${shown}`);
  }
  return lines;
}

function itemDocument(site: SiteRef, list: ListRef, item: ListItem): SourceDocument | undefined {
  const url = webUrlOf(item.webUrl);
  if (!url) return undefined;
  const fields = item.fields ?? {};
  const listName = list.displayName || list.name || list.id;
  const title =
    typeof fields.Title === 'string' && fields.Title.trim() !== '' ? fields.Title : `${listName} ${item.id}`;
  const modified = new Date(item.lastModifiedDateTime ?? item.createdDateTime ?? 0);
  const path = `${siteName(site)} / ${listName}`;
  return {
    externalId: itemId(site.id, list.id, item.id),
    title,
    url,
    body: [path, ...fieldLines(fields)].join('\n'),
    author: item.createdBy?.user?.displayName ? { name: item.createdBy.user.displayName } : {},
    objectType: 'Articles',
    fileType: 'listitem',
    createdTime: new Date(item.createdDateTime ?? modified),
    modifiedTime: modified,
    acl: [],
    extra: { path, list: listName, site: siteName(site) },
  };
}

/**
 * A page with its canvas and readers, as a document; undefined when it is gone since it was listed or has no
 * address.
 */
async function pageDocument(
  graph: Graph,
  site: SiteRef,
  library: PagesLibrary | undefined,
  listed: PageListing,
): Promise<SourceDocument | undefined> {
  let page: z.output<typeof pageWithCanvasSchema>;
  try {
    page = await graph.json(
      `/sites/${encodeURIComponent(site.id)}/pages/${encodeURIComponent(listed.id)}/microsoft.graph.sitePage`,
      pageWithCanvasSchema,
      { query: { $expand: 'canvasLayout' } },
    );
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
  const url = webUrlOf(page.webUrl);
  if (!url) return undefined;
  const acl = await pageReaders(graph, site.id, library, page.id);
  if (acl === undefined) return undefined;
  const title = page.title || page.name || 'Untitled';
  const modified = new Date(page.lastModifiedDateTime ?? page.createdDateTime ?? 0);
  const body = [page.description ?? '', pageText(page)].filter((part) => part.trim() !== '').join('\n\n');
  return {
    externalId: pageId(site.id, page.id),
    title,
    url,
    body,
    author: page.createdBy?.user?.displayName ? { name: page.createdBy.user.displayName } : {},
    objectType: 'Articles',
    fileType: 'page',
    createdTime: new Date(page.createdDateTime ?? modified),
    modifiedTime: modified,
    acl,
    extra: { site: siteName(site) },
  };
}

// ── Sync ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Per site: the newest lastModifiedDateTime of its pages seen (site pages have no delta in Graph v1.0, so every
 * run lists them and reads again those changed since), the pages last read as readable by nobody (read again each
 * run, so a page whose permissions could not be read comes back once they can), the delta link of its Site Pages
 * library's drive, for the pages whose sharing changed (null before the first), and each list's delta link
 * (nextLink mid-way, deltaLink after, null to start).
 */
const contentCursorSchema = z.object({
  v: z.literal(1),
  sites: z.array(
    z.object({
      id: z.string(),
      pagesSince: z.string().nullable(),
      hiddenPages: z.array(z.string()).default([]),
      pagesLink: z.string().nullable().default(null),
      lists: z.array(z.object({ id: z.string(), link: z.string().nullable() })),
    }),
  ),
});
export type ContentCursor = z.output<typeof contentCursorSchema>;
export const readContentCursor = (saved: unknown): ContentCursor | null => {
  const parsed = contentCursorSchema.safeParse(saved);
  return parsed.success ? parsed.data : null;
};

/**
 * The lists whose items are indexed, and the site's Site Pages library. Libraries are left out of the lists
 * (SharePoint names every library template so: documentLibrary, webPageLibrary, pictureLibrary…): their files are
 * the drives' and the site pages'. So are the lists SharePoint hides from people, and system lists, which Graph
 * leaves out unless `system` is selected.
 */
async function listsOf(
  graph: Graph,
  site: Pick<SiteRef, 'id'>,
): Promise<{ lists: ListRef[]; sitePages?: string }> {
  const lists: ListRef[] = [];
  let sitePages: string | undefined;
  const pages = graph.pages(`/sites/${encodeURIComponent(site.id)}/lists`, listSchema, {
    $select: 'id,displayName,name,list',
  });
  for await (const batch of pages) {
    sitePages ??= batch.find((list) => list.list?.template === 'webPageLibrary')?.id;
    lists.push(...batch.filter((list) => !list.list?.hidden && !list.list?.template?.endsWith('Library')));
  }
  return { lists, ...(sitePages === undefined ? {} : { sitePages }) };
}

const itemsDeltaPath = (siteId: string, listId: string) =>
  `/sites/${encodeURIComponent(siteId)}/lists/${encodeURIComponent(listId)}/items/delta`;

/** A list's delta from `link` (null: all its items); a token too old to follow (410) starts it over. */
async function* listDeltaPages(graph: Graph, siteId: string, listId: string, link: string | null) {
  const start = itemsDeltaPath(siteId, listId);
  let next = link ?? start;
  for (;;) {
    let answer: z.output<typeof listDeltaSchema>;
    try {
      answer = await graph.json(
        next,
        listDeltaSchema,
        next === start ? { query: { $expand: 'fields' } } : {},
      );
    } catch (error) {
      if (error instanceof NotFoundError && error.status === 410 && next !== start) {
        next = start;
        continue;
      }
      throw error;
    }
    const more = answer['@odata.nextLink'];
    const following = more ?? answer['@odata.deltaLink'];
    if (following === undefined)
      throw new FatalSourceError('Graph delta answered neither nextLink nor deltaLink');
    yield { items: answer.value, link: following, done: more === undefined };
    if (more === undefined) return;
    next = more;
  }
}

/**
 * The pages of a Site Pages library listed in its drive delta since `link`, sharing changes shown, and the link to
 * follow next time; with no link yet, only the link (`token=latest`: nothing before now is a change). `pages` is
 * null when Graph no longer follows the link (410): what changed meanwhile is unknown. A library whose drive Graph
 * will not show (refused, or gone since its site's lists were read) has no feed, and no link is kept: its pages'
 * sharing changes wait for the permission sync, as before there was one.
 */
async function pagesChangedSince(
  graph: Graph,
  siteId: string,
  listId: string,
  link: string | null,
): Promise<{ pages: Set<string> | null; link: string | null }> {
  try {
    return await followPagesDelta(graph, siteId, listId, link);
  } catch (error) {
    if ((error instanceof NotFoundError && error.status !== 410) || error instanceof PermissionMismatchError)
      return { pages: new Set(), link: null };
    throw error;
  }
}

async function followPagesDelta(
  graph: Graph,
  siteId: string,
  listId: string,
  link: string | null,
): Promise<{ pages: Set<string> | null; link: string }> {
  const start = `${listPath(siteId, listId)}/drive/root/delta`;
  const headers = { prefer: SHARING_CHANGES };
  const latest = async () => {
    const answer = await graph.json(start, pagesDeltaSchema, { query: { token: 'latest' }, headers });
    const next = answer['@odata.deltaLink'];
    if (next === undefined) throw new FatalSourceError('Graph delta answered no deltaLink for token=latest');
    return next;
  };
  if (link === null) return { pages: new Set(), link: await latest() };
  const pages = new Set<string>();
  let next = link;
  for (;;) {
    let answer: z.output<typeof pagesDeltaSchema>;
    try {
      answer = await graph.json(next, pagesDeltaSchema, { headers });
    } catch (error) {
      if (error instanceof NotFoundError && error.status === 410)
        return { pages: null, link: await latest() };
      throw error;
    }
    for (const item of answer.value) {
      const page = item.sharepointIds?.listItemUniqueId;
      if (page && !item.deleted) pages.add(page);
    }
    const more = answer['@odata.nextLink'];
    if (more !== undefined) {
      next = more;
      continue;
    }
    const deltaLink = answer['@odata.deltaLink'];
    if (deltaLink === undefined)
      throw new FatalSourceError('Graph delta answered neither nextLink nor deltaLink');
    return { pages, link: deltaLink };
  }
}

/** Every page of the site as listed, without its canvas. */
async function listPages(graph: Graph, site: SiteRef): Promise<PageListing[]> {
  const listed: PageListing[] = [];
  const pages = graph.pages(
    `/sites/${encodeURIComponent(site.id)}/pages/microsoft.graph.sitePage`,
    pageSchema,
    {
      $select: 'id,title,name,description,webUrl,createdDateTime,lastModifiedDateTime,createdBy',
    },
  );
  for await (const batch of pages) listed.push(...batch);
  return listed;
}

const inWindow = (ctx: ConnectorContext<unknown, unknown>, modified: string | null | undefined) =>
  !modified || new Date(modified) >= ctx.syncWindowStart;

/**
 * Every site's pages changed since the cursor, then each of its lists' delta, a batch per page of changes. Every
 * batch's cursor is a checkpoint: a site's pagesSince moves on only with its last batch of pages (a resume reads
 * that site's changed pages again), a list's link with each delta page. Progress is the share of sites done.
 */
export async function* syncSiteContent(
  ctx: ConnectorContext<unknown, unknown>,
  graph: Graph,
  sites: readonly SiteRef[],
  cursor: ContentCursor | null,
): AsyncGenerator<SyncBatch & { cursor: ContentCursor }> {
  const saved = new Map(cursor?.sites.map((site) => [site.id, site]));
  const state: ContentCursor = {
    v: 1,
    sites: sites.map((site) => ({
      id: site.id,
      pagesSince: saved.get(site.id)?.pagesSince ?? null,
      hiddenPages: saved.get(site.id)?.hiddenPages ?? [],
      pagesLink: saved.get(site.id)?.pagesLink ?? null,
      lists: saved.get(site.id)?.lists ?? [],
    })),
  };
  if (sites.length === 0) {
    yield { documents: [], cursor: state, progress: { share: 1 } };
    return;
  }
  for (const [index, site] of sites.entries()) {
    const entry = state.sites[index]!;
    const { lists, sitePages } = await listsOf(graph, site);
    const links = new Map(entry.lists.map((list) => [list.id, list.link]));
    entry.lists = lists.map((list) => ({ id: list.id, link: links.get(list.id) ?? null }));

    // Taken before the pages are listed, so a change made while they are read shows in the next delta.
    const delta =
      sitePages === undefined
        ? undefined
        : await pagesChangedSince(graph, site.id, sitePages, entry.pagesLink);
    const shared = delta?.pages;
    const listed = await listPages(graph, site);
    const since = entry.pagesSince === null ? null : Date.parse(entry.pagesSince);
    const modifiedAt = (page: PageListing) => Date.parse(page.lastModifiedDateTime ?? '') || 0;
    const hidden = new Set(entry.hiddenPages);
    const changed = listed.filter(
      (page) =>
        inWindow(ctx, page.lastModifiedDateTime) &&
        (since === null ||
          modifiedAt(page) > since ||
          hidden.has(page.id) ||
          shared === null ||
          shared?.has(page.id) === true),
    );
    const newest = Math.max(since ?? 0, ...listed.map(modifiedAt));
    // Read only when a page is: a quiet site costs no permissions call.
    const library = changed.length > 0 ? await pagesLibrary(graph, site.id, sitePages) : undefined;
    const hiddenNow: string[] = [];
    for (let at = 0; at === 0 || at < changed.length; at += PAGES_PER_BATCH) {
      ctx.signal.throwIfAborted();
      const slice = changed.slice(at, at + PAGES_PER_BATCH);
      const read = await Promise.all(slice.map((page) => pageDocument(graph, site, library, page)));
      const deleted = slice.filter((_, n) => read[n] === undefined).map((page) => pageId(site.id, page.id));
      hiddenNow.push(...slice.filter((_, n) => read[n]?.acl?.length === 0).map((page) => page.id));
      const lastOfPages = at + PAGES_PER_BATCH >= changed.length;
      if (lastOfPages) {
        entry.pagesSince = newest > 0 ? new Date(newest).toISOString() : null;
        entry.hiddenPages = hiddenNow;
        entry.pagesLink = delta?.link ?? null;
      }
      yield {
        documents: read.filter((document) => document !== undefined),
        deletedExternalIds: deleted,
        cursor: structuredClone(state),
        progress: { share: (index + (lastOfPages && lists.length === 0 ? 1 : 0)) / sites.length },
      };
    }

    for (const [at, list] of lists.entries()) {
      const listEntry = entry.lists[at]!;
      for await (const delta of listDeltaPages(graph, site.id, list.id, listEntry.link)) {
        ctx.signal.throwIfAborted();
        const documents: SourceDocument[] = [];
        const deleted: string[] = [];
        for (const item of delta.items) {
          if (item.deleted) deleted.push(itemId(site.id, list.id, item.id));
          else if (inWindow(ctx, item.lastModifiedDateTime)) {
            const document = itemDocument(site, list, item);
            if (document) documents.push(document);
            else deleted.push(itemId(site.id, list.id, item.id));
          }
        }
        listEntry.link = delta.link;
        const siteDone = at === lists.length - 1 && delta.done;
        yield {
          documents,
          deletedExternalIds: deleted,
          cursor: structuredClone(state),
          progress: { share: (index + (siteDone ? 1 : 0)) / sites.length },
        };
      }
    }
  }
}

/** Every page and list item id of the sites, whatever its age (extra ids are harmless to pruning). */
export async function* siteContentIds(graph: Graph, sites: readonly SiteRef[]): AsyncGenerator<string[]> {
  for (const site of sites) {
    yield (await listPages(graph, site)).map((page) => pageId(site.id, page.id));
    for (const list of (await listsOf(graph, site)).lists) {
      for await (const delta of listDeltaPages(graph, site.id, list.id, null))
        yield delta.items.filter((item) => !item.deleted).map((item) => itemId(site.id, list.id, item.id));
    }
  }
}

/**
 * Pages' and list items' readers now: each page's permissions read again (a site gone is left out, for pruning),
 * and nobody for a list item.
 */
export async function siteContentAcls(graph: Graph, externalIds: readonly string[]): Promise<DocumentAcl[]> {
  const answers: DocumentAcl[] = [];
  const pagesBySite = new Map<string, string[]>();
  for (const externalId of externalIds) {
    const ref = contentRef(externalId);
    if (ref?.kind === 'listitem') answers.push({ externalId, acl: [] });
    else if (ref?.kind === 'page')
      pagesBySite.set(ref.siteId, [...(pagesBySite.get(ref.siteId) ?? []), ref.pageId]);
  }
  for (const [siteId, pageIds] of pagesBySite) {
    let library: PagesLibrary | undefined;
    try {
      library = await pagesLibrary(graph, siteId, (await listsOf(graph, { id: siteId })).sitePages);
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    const readers = await Promise.all(pageIds.map((id) => pageReaders(graph, siteId, library, id)));
    for (const [n, acl] of readers.entries())
      if (acl !== undefined) answers.push({ externalId: pageId(siteId, pageIds[n]!), acl });
  }
  return answers;
}

/**
 * Each site's readers: the members of the Microsoft 365 group whose team site it is (the group itself, whose
 * transitive members the Entra group sync lists) and its owners; nobody for a site of no group.
 */
export async function* siteReaderMemberships(
  graph: Graph,
  sites: readonly SiteRef[],
): AsyncGenerator<GroupMembership[]> {
  const directory = await graph.directory();
  const readers = new Map<string, GroupMembership['members']>();
  for await (const groups of graph.pages('/groups', groupSchema, {
    $select: 'id,groupTypes',
    $top: DIRECTORY_PAGE,
  })) {
    for (const group of groups) {
      if (!group.groupTypes?.includes('Unified')) continue;
      let site: z.output<typeof siteSchema>;
      try {
        site = await graph.json(`/groups/${encodeURIComponent(group.id)}/sites/root`, siteSchema, {
          query: { $select: 'id' },
        });
      } catch (error) {
        // A group whose team site was never provisioned.
        if (error instanceof NotFoundError) continue;
        throw error;
      }
      const members: GroupMembership['members'] = [groupPrincipal(graph.shortname, group.id)];
      const owners = graph.pages(
        `/groups/${encodeURIComponent(group.id)}/owners/microsoft.graph.user`,
        ownerSchema,
        {
          $select: 'id',
          $top: DIRECTORY_PAGE,
        },
      );
      for await (const batch of owners) {
        for (const owner of batch) {
          const email = directory.get(owner.id);
          if (email) members.push(userPrincipal(email));
        }
      }
      readers.set(site.id, members);
    }
  }
  yield sites.map((site) => ({
    group: siteReaders(site.id),
    members: readers.get(site.id) ?? [],
  }));
}
