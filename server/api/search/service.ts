/**
 * The search service behind `_search`, `_hitsStat`, `_autosuggest`, `/pin` and `/preview` (spec shell-and-account
 * §7.3–7.4). Every answer is computed under the viewer's principals (`principalsFor`): hits, facet counts,
 * pins, suggestions, corrections and previews come only from documents the viewer may read.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  FILE_TYPE_GROUPS,
  pinQueryKey,
  PREVIEW_CONTEXT_CHARS,
  AUTOSUGGEST_PAGE_SIZE,
  AUTOSUGGEST_RECENT_MAX,
  type AutosuggestResponse,
  type HitCounts,
  type PreviewResponse,
  type SearchFiltersParsed,
  type SearchResponse,
} from '../../../common/api/search';
import { isOpenableDocumentUrl } from '../../../common/document-url';
import { SEARCH_HISTORY_MAX_ENTRIES } from '../../../common/limits';
import type { Viewer } from '../../context';
import { documents, pins, searchHistory, users } from '../../db/schema';
import type { Store } from '../../db/store';
import { notFound } from '../../errors';
import { presentSearchHit } from '../../presenters/search';
import {
  countBy,
  ensureSearchIndexes,
  facetCounts,
  principalsFor,
  searchChunks,
  type FacetCount,
  type FacetField,
  type SearchFilters,
  type SearchSort,
} from '../../search';
import { spellCorrect } from './spelling';

const DAY_MS = 86_400_000;
const MODIFIED_RANGE_MS = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS, year: 365 * DAY_MS } as const;
/** A file-type list no stored document has: "filter to nothing" for an 'other' with no other types. */
const NO_FILE_TYPE = '\u0000';
const MAX_PINS_SHOWN = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ViewerScope {
  orgId: string;
  userId: string;
  principals: string[];
}

export async function scopeOf(store: Store, viewer: Viewer): Promise<ViewerScope> {
  return {
    orgId: viewer.orgId,
    userId: viewer.userId,
    principals: await principalsFor(store.db, viewer.orgId, viewer.email),
  };
}

/** The viewer's read condition on `c` (document_chunks), as the search core writes it. */
const readableChunks = (scope: ViewerScope): SQL =>
  sql`c.org_id = ${scope.orgId}::uuid AND c.acl && ${sql.param(scope.principals)}::text[]`;

const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The API's filters as the core's, with 'everyone', 'any' and 'all' meaning no restriction. */
async function toCoreFilters(
  store: Store,
  scope: ViewerScope,
  filters: SearchFiltersParsed | undefined,
  now: Date,
): Promise<SearchFilters> {
  const out: SearchFilters = {};
  if (!filters) return out;
  if (filters.source?.length) out.sources = filters.source;
  const people = filters.person_filter?.filter((value) => value !== 'everyone') ?? [];
  if (people.length > 0 && !filters.person_filter?.includes('everyone')) out.authorEmails = people;
  const types = filters.object_type ?? [];
  if (types.length > 0 && !types.includes('all')) out.objectTypes = types.map(capitalise);
  if (filters.modified && filters.modified !== 'any')
    out.modifiedAfter = new Date(now.getTime() - MODIFIED_RANGE_MS[filters.modified]);
  const fileFilter = filters.filefilter ?? [];
  if (fileFilter.length > 0 && !fileFilter.includes('any')) {
    const wanted = new Set<string>();
    for (const value of fileFilter) {
      if (value !== 'other' && value !== 'any') for (const type of FILE_TYPE_GROUPS[value]) wanted.add(type);
    }
    if (fileFilter.includes('other')) {
      // 'other' is every stored file type outside the named groups: the readable ones are all it can match
      const known = new Set(Object.values(FILE_TYPE_GROUPS).flat());
      const present = await countBy(store, { ...scope, q: '', filters: {} }, 'fileType');
      for (const { value } of present) if (value && !known.has(value)) wanted.add(value);
    }
    out.fileTypes = wanted.size > 0 ? [...wanted] : [NO_FILE_TYPE];
  }
  return out;
}

const toRecord = (counts: FacetCount[], key: (value: string) => string) =>
  Object.fromEntries(counts.flatMap(({ value, count }) => (value ? [[key(value), count]] : [])));

const presentHitCounts = (counts: Partial<Record<FacetField, FacetCount[]>>): HitCounts => ({
  byApp: toRecord(counts.source ?? [], (v) => v),
  byType: toRecord(counts.objectType ?? [], (v) => v.toLowerCase()),
});

/** Facets: each one counted under every filter but its own, so the other apps still show their counts. */
export async function hitCounts(
  store: Store,
  scope: ViewerScope,
  q: string,
  filters: SearchFilters,
): Promise<HitCounts> {
  return presentHitCounts(
    await facetCounts(
      store,
      { orgId: scope.orgId, principals: scope.principals, q },
      { source: { ...filters, sources: undefined }, objectType: { ...filters, objectTypes: undefined } },
    ),
  );
}

const SORTS: Record<string, SearchSort> = {
  relevance_desc: 'relevance',
  relevance_asc: 'relevance',
  modified_desc: 'modified_newest',
  modified_asc: 'modified_oldest',
  created_desc: 'created_newest',
  created_asc: 'created_oldest',
};

export interface SearchInput {
  q: string;
  filters?: SearchFiltersParsed;
  page: number;
  page_size: number;
  sort: 'relevance' | 'modified' | 'created';
  order: 'asc' | 'desc';
}

export async function search(
  store: Store,
  scope: ViewerScope,
  input: SearchInput,
  version: string,
  now = new Date(),
): Promise<SearchResponse> {
  const filters = await toCoreFilters(store, scope, input.filters, now);
  const request = { orgId: scope.orgId, principals: scope.principals, q: input.q, filters };
  const firstPage = input.page === 0;
  const sort = SORTS[`${input.sort}_${input.order}`];
  // with no app or type filter the facets are counted under the search's own conditions: on pg_textsearch one
  // ranked scan then serves the page and the counts (the search says whether it did)
  const shareFacets =
    !filters.sources?.length &&
    !filters.objectTypes?.length &&
    sort === 'relevance' &&
    input.q.trim() !== '' &&
    (await ensureSearchIndexes(store));
  const [results, apart, pinnedIds] = await Promise.all([
    searchChunks(store, {
      ...request,
      limit: input.page_size,
      offset: input.page * input.page_size,
      sort,
      // the answer carries facet counts, not a total: counting every match again would only cost time
      count: false,
      now,
      ...(shareFacets ? { facets: ['source', 'objectType'] as const } : {}),
    }),
    shareFacets ? null : hitCounts(store, scope, input.q, filters),
    pinnedFor(store, scope.orgId, input.q),
  ]);
  const counts =
    apart ??
    (results.facets ? presentHitCounts(results.facets) : await hitCounts(store, scope, input.q, filters));
  let pinned: SearchResponse['pins'] = [];
  const readablePins = new Set<string>();
  if (firstPage && pinnedIds.length > 0) {
    // the pinned documents the viewer may read under the same filters; a pin never opens a document
    const shown = await searchChunks(store, {
      ...request,
      q: '',
      filters: { ...filters, documentIds: pinnedIds },
      limit: MAX_PINS_SHOWN,
      count: false,
    });
    for (const hit of shown.hits) readablePins.add(hit.documentId);
    pinned = pinnedIds.flatMap((id) => {
      const hit = shown.hits.find((candidate) => candidate.documentId === id);
      return hit ? [presentSearchHit(hit, true)] : [];
    });
  }
  const correction = firstPage
    ? await spellCorrect(store.db, scope.orgId, readableChunks(scope), input.q, new Set(results.matchedTerms))
    : null;
  if (firstPage) await recordQuery(store, scope, input.q);
  return {
    hits: results.hits.map((hit) => presentSearchHit(hit, readablePins.has(hit.documentId))),
    has_more: results.hasMore,
    _version: version,
    people: [],
    hitCounts: counts,
    pins: pinned,
    query_spell_corrected: correction,
  };
}

export async function hitsStat(
  store: Store,
  scope: ViewerScope,
  input: { q: string; filters?: SearchFiltersParsed },
  now = new Date(),
): Promise<HitCounts> {
  return hitCounts(store, scope, input.q, await toCoreFilters(store, scope, input.filters, now));
}

async function pinnedFor(store: Store, orgId: string, q: string): Promise<string[]> {
  const rows = await store.db
    .select({ objectId: pins.objectId })
    .from(pins)
    .where(and(eq(pins.orgId, orgId), eq(pins.q, pinQueryKey(q))))
    .orderBy(desc(pins.createdAt))
    .limit(MAX_PINS_SHOWN);
  return rows.map((row) => row.objectId).filter((id) => UUID.test(id));
}

/** The viewer's query history (spec §9: 1000 entries), newest kept. */
async function recordQuery(store: Store, scope: ViewerScope, q: string): Promise<void> {
  await store.db.insert(searchHistory).values({ orgId: scope.orgId, userId: scope.userId, q: q.trim() });
  await store.db.execute(sql`
    DELETE FROM search_history WHERE id IN (
      SELECT id FROM search_history WHERE org_id = ${scope.orgId}::uuid AND user_id = ${scope.userId}::uuid
      ORDER BY searched_at DESC, id DESC OFFSET ${SEARCH_HISTORY_MAX_ENTRIES})`);
}

/**
 * Which of these documents the viewer may read now. A cached answer is served only while every document it names
 * passes this, so a revocation, a deletion or a group change applies on the next request, on every instance: the
 * store decides, not the cache.
 */
export async function readableDocumentIds(
  store: Store,
  scope: ViewerScope,
  ids: readonly string[],
): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (wanted.length === 0) return new Set();
  const rows = await store.db.execute(sql`
    SELECT d.id FROM documents d
    WHERE d.org_id = ${scope.orgId}::uuid AND d.id = ANY(${sql.param(wanted)}::uuid[])
      AND d.acl && ${sql.param(scope.principals)}::text[]`);
  return new Set(rows.rows.map((row) => String(row.id)));
}

/** Members autosuggest offers: neither removed nor blocked. */
const SUGGESTED_MEMBER = sql`u.status NOT IN ('DELETED', 'BLOCKED')`;

/** Which of these emails belong to members autosuggest may still offer (a cached suggestion is re-checked). */
export async function suggestedMemberEmails(
  store: Store,
  orgId: string,
  emails: readonly string[],
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await store.db.execute(sql`
    SELECT u.email FROM ${users} u
    WHERE u.org_id = ${orgId}::uuid AND u.email = ANY(${sql.param([...emails])}::text[]) AND ${SUGGESTED_MEMBER}`);
  return new Set(rows.rows.map((row) => String(row.email)));
}

/** Whether the viewer may read this document: the search core answers, under the viewer's principals. */
async function readableDocument(store: Store, scope: ViewerScope, objectId: string) {
  if (!UUID.test(objectId)) return null;
  const found = await searchChunks(store, {
    orgId: scope.orgId,
    principals: scope.principals,
    q: '',
    filters: { documentIds: [objectId] },
    limit: 1,
    count: false,
    snippets: false,
  });
  return found.hits[0] ?? null;
}

/** Admins pin a result for a query, org-wide; only a document the admin may read can be pinned. */
export async function setPin(
  store: Store,
  scope: ViewerScope,
  input: { object_id: string; q: string; timestamp: number; unpin: boolean },
): Promise<void> {
  const q = pinQueryKey(input.q);
  if (input.unpin) {
    await store.db
      .delete(pins)
      .where(and(eq(pins.orgId, scope.orgId), eq(pins.q, q), eq(pins.objectId, input.object_id)));
    return;
  }
  if (!(await readableDocument(store, scope, input.object_id))) throw notFound();
  await store.db
    .insert(pins)
    .values({
      orgId: scope.orgId,
      objectId: input.object_id,
      q,
      pinnedBy: scope.userId,
      createdAt: new Date(input.timestamp * 1000),
    })
    .onConflictDoNothing();
}

const likePrefix = (value: string) => `${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export async function autosuggest(
  store: Store,
  scope: ViewerScope,
  input: { q: string; page: number },
): Promise<AutosuggestResponse> {
  const q = input.q.trim().toLowerCase().replace(/\s+/g, ' ');
  const offset = input.page * AUTOSUGGEST_PAGE_SIZE;
  const recent =
    input.page === 0
      ? await store.db.execute(sql`
          SELECT q FROM search_history
          WHERE org_id = ${scope.orgId}::uuid AND user_id = ${scope.userId}::uuid
            AND lower(q) LIKE ${likePrefix(q)}
          GROUP BY q ORDER BY max(searched_at) DESC, q LIMIT ${AUTOSUGGEST_RECENT_MAX}`)
      : { rows: [] };
  if (q === '') return { titles: [], people: [], recent: recent.rows.map((row) => String(row.q)) };
  const prefix = likePrefix(q);
  const wordPrefix = `% ${prefix}`;
  const titles = await store.db.execute(sql`
    SELECT d.id, d.title, d.source, d.url FROM documents d
    WHERE d.org_id = ${scope.orgId}::uuid AND d.acl && ${sql.param(scope.principals)}::text[]
      AND (lower(d.title) LIKE ${prefix} OR lower(d.title) LIKE ${wordPrefix})
    ORDER BY (lower(d.title) LIKE ${prefix}) DESC, d.modified_time DESC NULLS LAST, d.id
    LIMIT ${AUTOSUGGEST_PAGE_SIZE} OFFSET ${offset}`);
  const people = await store.db.execute(sql`
    SELECT u.email, u.display_name, u.first_name, u.last_name FROM ${users} u
    WHERE u.org_id = ${scope.orgId}::uuid AND ${SUGGESTED_MEMBER}
      AND (lower(u.email) LIKE ${prefix} OR lower(coalesce(u.display_name, '')) LIKE ${prefix}
        OR lower(coalesce(u.first_name, '')) LIKE ${prefix} OR lower(coalesce(u.last_name, '')) LIKE ${prefix}
        OR lower(concat_ws(' ', u.first_name, u.last_name)) LIKE ${prefix})
    ORDER BY u.email LIMIT ${AUTOSUGGEST_PAGE_SIZE} OFFSET ${offset}`);
  return {
    titles: titles.rows.map((row) => ({
      objectID: String(row.id),
      name: String(row.title),
      source: String(row.source),
      webview_link: row.url == null ? null : String(row.url),
    })),
    people: people.rows.map((row) => {
      const name =
        (row.display_name as string | null) ||
        [row.first_name, row.last_name].filter(Boolean).join(' ') ||
        String(row.email);
      return { name, email: String(row.email) };
    }),
    recent: recent.rows.map((row) => String(row.q)),
  };
}

/**
 * The document's text around one chunk: the thread's when `threadId` names a chunk of it, else the best match
 * for `q`, else the first. Unknown and unreadable documents get the same 404.
 */
export async function preview(
  store: Store,
  scope: ViewerScope,
  input: { objectId: string; threadId?: string; q?: string },
): Promise<PreviewResponse> {
  if (!UUID.test(input.objectId)) throw notFound();
  const base = {
    orgId: scope.orgId,
    principals: scope.principals,
    filters: { documentIds: [input.objectId] },
  };
  let hit = input.q?.trim()
    ? (await searchChunks(store, { ...base, q: input.q, limit: 1, count: false, feedback: false })).hits[0]
    : undefined;
  hit ??= (await searchChunks(store, { ...base, q: '', limit: 1, count: false })).hits[0];
  if (!hit) throw notFound();
  const [doc] = await store.db
    .select({ body: documents.body })
    .from(documents)
    .where(and(eq(documents.orgId, scope.orgId), eq(documents.id, hit.documentId)));
  if (!doc) throw notFound();
  let centre = { start: hit.offsets.start, end: hit.offsets.end };
  if (input.threadId && UUID.test(input.threadId)) {
    const chunk = await store.db.execute(sql`
      SELECT c.start_offset, c.end_offset FROM document_chunks c
      WHERE ${readableChunks(scope)} AND c.document_id = ${hit.documentId}::uuid AND c.id = ${input.threadId}::uuid`);
    const row = chunk.rows[0];
    if (row) centre = { start: Number(row.start_offset ?? 0), end: Number(row.end_offset ?? 0) };
  }
  const body = doc.body;
  const middle = Math.floor((centre.start + centre.end) / 2);
  let start = Math.max(0, Math.min(middle - PREVIEW_CONTEXT_CHARS, body.length - 2 * PREVIEW_CONTEXT_CHARS));
  let end = Math.min(body.length, start + 2 * PREVIEW_CONTEXT_CHARS);
  // whole lines where possible
  if (start > 0) {
    const line = body.indexOf('\n', start);
    if (line >= 0 && line < middle) start = line + 1;
  }
  if (end < body.length) {
    const line = body.lastIndexOf('\n', end);
    if (line > middle) end = line;
  }
  return {
    objectID: hit.documentId,
    name: hit.title,
    source: hit.source,
    // a placeholder address (the demo's) would be a dead link: the preview is all there is of such a document
    webview_link: isOpenableDocumentUrl(hit.url) ? hit.url : null,
    content: body.slice(start, end),
    offset: start,
    truncated_before: start > 0,
    truncated_after: end < body.length,
  };
}
