/**
 * Retrieval for an answer (DESIGN §6, GATHERING_DATA). Every search goes through server/search with the asker's
 * principals, so the ACL is applied inside the index query and an answer can only ever see documents its asker can
 * read. The scope's selection (apps, files, verified answers, attached files) only narrows what is searched.
 *
 * Where things live in the index: an app's documents have the app's shortname as source (an individual or org
 * connection as connection_id); uploads are the documents their `uploads.document_id` names (source 'files');
 * verified answers are documents with source 'verified_answers' and the answer's id as external id. An app's
 * specify-sources details (files, folders, drives, channels, spaces) name documents or the containers recorded in
 * their `extra` (APP_DETAIL_EXTRA_KEYS).
 */
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { ReferenceSource } from '../../common/api/messages';
import {
  APP_DETAIL_EXTRA_KEYS,
  type AppDetails,
  type QuerySources,
  type SkillFilter,
} from '../../common/api/chat';
import { documentChunks, documents, uploads } from '../db/schema';
import type { Store } from '../db/store';
import { searchChunks, type SearchFilters, type SearchHit } from '../search';
import type { Passage } from './passages';

/** Characters of a chunk the model reads per source. */
const PASSAGE_MAX_CHARS = 2400;
/** Chunks per document given to the model. */
const CHUNKS_PER_DOCUMENT = 2;

type Lane = {
  filters: SearchFilters;
  /** Hits of these sources are dropped (the other lanes own them). */
  excludeSources?: ReadonlySet<string>;
  /** Attached files: always kept, ahead of everything else; an empty query falls back to their beginning. */
  pinned?: boolean;
};

export type AppRetrievalRequest = {
  orgId: string;
  principals: readonly string[];
  q: string;
  sources: QuerySources;
  /** Upload ids attached to the question or the topic. */
  attachedUploadIds: readonly string[];
  limit: number;
  signal?: AbortSignal;
};

async function documentIdsOfUploads(store: Store, orgId: string, ids: readonly string[]): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const rows = await store.db
    .select({ documentId: uploads.documentId })
    .from(uploads)
    .where(and(eq(uploads.orgId, orgId), inArray(uploads.id, valid)));
  return rows.flatMap((row) => (row.documentId ? [row.documentId] : []));
}

async function documentIdsOfAnswers(store: Store, orgId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await store.db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.orgId, orgId),
        eq(documents.source, ReferenceSource.verifiedAnswers),
        inArray(documents.externalId, [...ids]),
      ),
    );
  return rows.map((row) => row.id);
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** The entries of specify-sources details, trimmed and lower-cased; null when they restrict nothing. */
function detailEntries(details: AppDetails | null | undefined): Map<keyof AppDetails, string[]> | null {
  if (!details) return null;
  const entries = new Map<keyof AppDetails, string[]>();
  for (const field of ['files', 'folders', 'drives', 'channels', 'spaces'] as const) {
    const values = [
      ...new Set((details[field] ?? []).map((value) => value.trim().toLowerCase()).filter(Boolean)),
    ];
    if (values.length > 0) entries.set(field, values);
  }
  return entries.size > 0 ? entries : null;
}

/**
 * The app's documents the specify-sources details name (spec apps-and-connections §4): a file itself, or anything
 * in a named folder, drive, channel or space (APP_DETAIL_EXTRA_KEYS). Any entry of any field admits a document.
 * Readability is not decided here: the ids only narrow the ACL-filtered index query.
 */
async function documentIdsOfDetails(
  store: Store,
  orgId: string,
  app: string,
  connectionId: string | null,
  entries: Map<keyof AppDetails, string[]>,
): Promise<string[]> {
  const matches: SQL[] = [];
  for (const [field, values] of entries) {
    const list = sql`${sql.param(values)}::text[]`;
    if (field === 'files') {
      matches.push(
        sql`(lower(${documents.externalId}) = ANY(${list}) OR lower(${documents.title}) = ANY(${list})
          OR lower(${documents.url}) = ANY(${list}))`,
      );
      continue;
    }
    const value = sql`${documents.extra} -> ${APP_DETAIL_EXTRA_KEYS[field]}::text`;
    matches.push(sql`(CASE jsonb_typeof(${value})
      WHEN 'string' THEN lower(${value} #>> '{}') = ANY(${list})
      WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(${value}) AS v(name) WHERE lower(v.name) = ANY(${list}))
      ELSE false END)`);
  }
  const rows = await store.db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.orgId, orgId),
        eq(documents.source, app),
        connectionId ? eq(documents.connectionId, connectionId) : undefined,
        or(...matches),
      ),
    );
  return rows.map((row) => row.id);
}

/**
 * One lane per selected app. Filters of one app without details merge (every connection, or the listed ones);
 * a filter with details is its own lane, limited to the documents they name, so it never widens to the whole app.
 */
async function appLanes(store: Store, orgId: string, filters: readonly SkillFilter[]): Promise<Lane[]> {
  const whole = new Map<string, (string | null)[]>();
  const lanes: Lane[] = [];
  for (const filter of filters) {
    const connectionId = filter.app_id && isUuid(filter.app_id) ? filter.app_id : null;
    const entries = detailEntries(filter.app_details);
    if (!entries) {
      whole.set(filter.app_name, [...(whole.get(filter.app_name) ?? []), connectionId]);
      continue;
    }
    const ids = await documentIdsOfDetails(store, orgId, filter.app_name, connectionId, entries);
    if (ids.length > 0) lanes.push({ filters: { sources: [filter.app_name], documentIds: ids } });
  }
  for (const [app, connections] of whole) {
    const everyConnection = connections.some((id) => id === null);
    lanes.push({
      filters: {
        sources: [app],
        ...(everyConnection ? {} : { connectionIds: connections.filter((id): id is string => id !== null) }),
      },
    });
  }
  return lanes;
}

/**
 * Lanes that only name sources become one search over all of them. Each search ranks with its own feedback pass, so
 * scores from different searches are not on one scale: a lane of a few documents (verified answers, say) would
 * otherwise outrank a better passage found by the main search.
 */
function mergeSourceLanes(lanes: Lane[]): Lane[] {
  const plain = lanes.filter(
    (lane) =>
      !lane.pinned && !lane.excludeSources && lane.filters.sources && Object.keys(lane.filters).length === 1,
  );
  if (plain.length < 2) return lanes;
  const rest = lanes.filter((lane) => !plain.includes(lane));
  return [...rest, { filters: { sources: plain.flatMap((lane) => lane.filters.sources ?? []) } }];
}

async function lanesFor(store: Store, request: AppRetrievalRequest): Promise<Lane[]> {
  const { sources } = request;
  // Everything selected (the default): one search over every readable document.
  if (sources.skills.search_all && sources.files.search_all && sources.answers.search_all) {
    return [{ filters: {} }];
  }
  return mergeSourceLanes(await selectedLanes(store, request));
}

async function selectedLanes(store: Store, request: AppRetrievalRequest): Promise<Lane[]> {
  const { sources, orgId } = request;
  const lanes: Lane[] = [];
  const otherSources = new Set<string>([ReferenceSource.files, ReferenceSource.verifiedAnswers]);
  if (sources.skills.search_all) {
    lanes.push({ filters: {}, excludeSources: otherSources });
  } else {
    lanes.push(...(await appLanes(store, orgId, sources.skills.filters)));
  }
  if (sources.files.search_all) {
    lanes.push({ filters: { sources: [ReferenceSource.files] } });
  } else if (sources.files.filters.length > 0) {
    const ids = await documentIdsOfUploads(store, orgId, sources.files.filters);
    if (ids.length > 0) lanes.push({ filters: { documentIds: ids } });
  }
  if (sources.answers.search_all) {
    lanes.push({ filters: { sources: [ReferenceSource.verifiedAnswers] } });
  } else if (sources.answers.filters.length > 0) {
    const ids = await documentIdsOfAnswers(store, orgId, sources.answers.filters);
    if (ids.length > 0) lanes.push({ filters: { documentIds: ids } });
  }
  return lanes;
}

async function attachedLane(store: Store, request: AppRetrievalRequest): Promise<Lane | null> {
  if (request.attachedUploadIds.length === 0) return null;
  const ids = await documentIdsOfUploads(store, request.orgId, request.attachedUploadIds);
  return ids.length > 0 ? { filters: { documentIds: ids }, pinned: true } : null;
}

async function searchLane(store: Store, request: AppRetrievalRequest, lane: Lane): Promise<SearchHit[]> {
  const base = {
    orgId: request.orgId,
    principals: request.principals,
    filters: lane.filters,
    limit: lane.excludeSources ? request.limit * 2 : request.limit,
    count: false,
  };
  let { hits } = await searchChunks(store, { ...base, q: request.q });
  // An attached file the question's words do not match is still what the asker wants read.
  if (lane.pinned && hits.length === 0) ({ hits } = await searchChunks(store, { ...base, q: '' }));
  return lane.excludeSources ? hits.filter((hit) => !lane.excludeSources!.has(hit.source)) : hits;
}

/** The chunk texts the model reads, for the hits chosen, keyed by chunk id. Org-filtered like every query. */
async function chunkTexts(
  store: Store,
  orgId: string,
  hits: readonly SearchHit[],
): Promise<Map<string, string>> {
  const ids = hits.flatMap((hit) => hit.chunks.slice(0, CHUNKS_PER_DOCUMENT).map((chunk) => chunk.chunkId));
  if (ids.length === 0) return new Map();
  const rows = await store.db
    .select({ id: documentChunks.id, body: documentChunks.body })
    .from(documentChunks)
    .where(and(eq(documentChunks.orgId, orgId), inArray(documentChunks.id, ids)));
  return new Map(rows.map((row) => [row.id, row.body]));
}

function passageOf(hit: SearchHit, texts: Map<string, string>): Passage {
  const parts = hit.chunks
    .slice(0, CHUNKS_PER_DOCUMENT)
    .map((chunk) => texts.get(chunk.chunkId))
    .filter((text): text is string => Boolean(text));
  const text = (parts.length > 0 ? parts.join('\n…\n') : hit.snippet).slice(0, PASSAGE_MAX_CHARS);
  return {
    id: hit.documentId,
    title: hit.title,
    url: hit.url,
    source: hit.source,
    snippet: hit.snippet,
    text,
    authorEmail: hit.authorEmail,
    authorName: hit.author,
    modifiedTime: hit.modifiedTime,
    objectType: hit.objectType,
    score: hit.score,
  };
}

/**
 * The best passages for a question over the selected apps, files and verified answers, best first, one per
 * document. Attached files come first.
 */
export async function retrieveFromApps(store: Store, request: AppRetrievalRequest): Promise<Passage[]> {
  const attached = await attachedLane(store, request);
  const lanes = await lanesFor(store, request);
  const all = [...(attached ? [attached] : []), ...lanes];
  const results = await Promise.all(all.map((lane) => searchLane(store, request, lane)));
  request.signal?.throwIfAborted();
  const pinned: SearchHit[] = [];
  const ranked: SearchHit[] = [];
  results.forEach((hits, index) => (all[index]!.pinned ? pinned : ranked).push(...hits));
  ranked.sort((a, b) => b.score - a.score);
  const chosen: SearchHit[] = [];
  const seen = new Set<string>();
  for (const hit of [...pinned, ...ranked]) {
    if (seen.has(hit.documentId)) continue;
    seen.add(hit.documentId);
    chosen.push(hit);
    if (chosen.length >= request.limit) break;
  }
  const texts = await chunkTexts(store, request.orgId, chosen);
  return chosen.map((hit) => passageOf(hit, texts));
}

/** SKILL_RETRIEVED's counts: documents per app, in the order apps first appear among the passages. */
export function countByApp(passages: readonly Passage[]): { appName: string; numDocs: number }[] {
  const counts = new Map<string, number>();
  for (const passage of passages) counts.set(passage.source, (counts.get(passage.source) ?? 0) + 1);
  return [...counts].map(([appName, numDocs]) => ({ appName, numDocs }));
}
