// What a SharePoint site holds beside its document libraries (./graph.ts): site pages, with the text of their
// text web parts, and the items of its lists, each item's columns as 'Name: value' lines.
//
// Who may read them. Graph v1.0 lists no permissions of a site page or of a list item (a generic list's items are
// no driveItems, and /sites/{id}/permissions names the apps granted Sites.Selected, not people), nor the members
// of a site's SharePoint groups. What it does name is the Microsoft 365 group a team site belongs to
// (GET /groups/{id}/sites/root), whose members SharePoint puts in the site's Members group and whose owners in its
// Owners group. So a page or item is readable by the principal `site:{siteId}`, whose members the permission sync
// sets to that group (its members, nested groups expanded as every Entra group's are) and its owners. A site of
// no Microsoft 365 group (a communication site, a classic site, a subsite) has no readers Graph can name, and its
// pages and items are readable by nobody (fail closed). Limits, all on the side of hiding: people or groups added
// to the site's own SharePoint groups or shared the site directly, and the whole organisation that a public
// group's site admits, are not readers. One limit is not: a page or item whose permissions were narrowed below
// the site's (broken inheritance) is still readable by the site's group, since Graph v1.0 cannot show it.
import { z } from 'zod';
import {
  FatalSourceError,
  NotFoundError,
  groupPrincipal,
  userPrincipal,
  type ConnectorContext,
  type DocumentAcl,
  type GroupMembership,
  type GroupPrincipal,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { htmlToDocument } from '../sdk/html';
import { DIRECTORY_PAGE, type Graph } from '../microsoft/app-only';
import { odataPageSchema } from '../microsoft/graph';

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

const groupSchema = z.object({ id: z.string(), groupTypes: z.array(z.string()).nullish() });
const ownerSchema = z.object({ id: z.string() });

// ── External ids ────────────────────────────────────────────────────────────────────────────────────────

/** Site ids ('host,collection,web') and Graph's page, list and item ids hold no ':'. */
const pageId = (siteId: string, id: string) => `page:${siteId}:${id}`;
const itemId = (siteId: string, listId: string, id: string) => `listitem:${siteId}:${listId}:${id}`;

/** The site of a page's or list item's external id; undefined for any other (a drive's file). */
export function siteOfContent(externalId: string): string | undefined {
  const [kind, siteId] = externalId.split(':');
  return (kind === 'page' || kind === 'listitem') && siteId ? siteId : undefined;
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
    acl: [siteReaders(site.id)],
    extra: { path, list: listName, site: siteName(site) },
  };
}

/** A page with its canvas, as a document; undefined when it is gone since it was listed or has no address. */
async function pageDocument(
  graph: Graph,
  site: SiteRef,
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
    acl: [siteReaders(site.id)],
    extra: { site: siteName(site) },
  };
}

// ── Sync ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Per site: the newest lastModifiedDateTime of its pages seen (site pages have no delta in Graph v1.0, so every
 * run lists them and reads again those changed since), and each list's delta link (nextLink mid-way, deltaLink
 * after, null to start).
 */
const contentCursorSchema = z.object({
  v: z.literal(1),
  sites: z.array(
    z.object({
      id: z.string(),
      pagesSince: z.string().nullable(),
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
 * The lists whose items are indexed. Libraries are left out (SharePoint names every library template so:
 * documentLibrary, webPageLibrary, pictureLibrary…): their files are the drives' and the site pages'. So are the
 * lists SharePoint hides from people, and system lists, which Graph leaves out unless `system` is selected.
 */
async function listsOf(graph: Graph, site: SiteRef): Promise<ListRef[]> {
  const lists: ListRef[] = [];
  const pages = graph.pages(`/sites/${encodeURIComponent(site.id)}/lists`, listSchema, {
    $select: 'id,displayName,name,list',
  });
  for await (const batch of pages)
    lists.push(...batch.filter((list) => !list.list?.hidden && !list.list?.template?.endsWith('Library')));
  return lists;
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
      lists: saved.get(site.id)?.lists ?? [],
    })),
  };
  if (sites.length === 0) {
    yield { documents: [], cursor: state, progress: { share: 1 } };
    return;
  }
  for (const [index, site] of sites.entries()) {
    const entry = state.sites[index]!;
    const lists = await listsOf(graph, site);
    const links = new Map(entry.lists.map((list) => [list.id, list.link]));
    entry.lists = lists.map((list) => ({ id: list.id, link: links.get(list.id) ?? null }));

    const listed = await listPages(graph, site);
    const since = entry.pagesSince === null ? null : Date.parse(entry.pagesSince);
    const modifiedAt = (page: PageListing) => Date.parse(page.lastModifiedDateTime ?? '') || 0;
    const changed = listed.filter(
      (page) => inWindow(ctx, page.lastModifiedDateTime) && (since === null || modifiedAt(page) > since),
    );
    const newest = Math.max(since ?? 0, ...listed.map(modifiedAt));
    for (let at = 0; at === 0 || at < changed.length; at += PAGES_PER_BATCH) {
      ctx.signal.throwIfAborted();
      const slice = changed.slice(at, at + PAGES_PER_BATCH);
      const read = await Promise.all(slice.map((page) => pageDocument(graph, site, page)));
      const deleted = slice.filter((_, n) => read[n] === undefined).map((page) => pageId(site.id, page.id));
      const lastOfPages = at + PAGES_PER_BATCH >= changed.length;
      if (lastOfPages) entry.pagesSince = newest > 0 ? new Date(newest).toISOString() : null;
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
    for (const list of await listsOf(graph, site)) {
      for await (const delta of listDeltaPages(graph, site.id, list.id, null))
        yield delta.items.filter((item) => !item.deleted).map((item) => itemId(site.id, list.id, item.id));
    }
  }
}

/** Pages' and list items' readers, which are their site's (its members are the permission sync's business). */
export function siteContentAcls(externalIds: readonly string[]): DocumentAcl[] {
  return externalIds.flatMap((externalId) => {
    const siteId = siteOfContent(externalId);
    return siteId ? [{ externalId, acl: [siteReaders(siteId)] }] : [];
  });
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
