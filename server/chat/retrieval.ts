/**
 * Retrieval for an answer (DESIGN §6, GATHERING_DATA). Every search goes through server/search with the asker's
 * principals, so the ACL is applied inside the index query and an answer can only ever see documents its asker can
 * read. The scope's selection (apps, files, verified answers, attached files) only narrows what is searched. The
 * chunks the model reads are fetched again with the ACL inside that query too.
 *
 * What the model reads is passages, not documents: the best documents' chunks ranked by the search's own chunk
 * scores and, for a question asking for a figure, by whether they state one (answer-kind.ts), each followed by its
 * neighbours, within the model's token budget, joined where adjacent, without repeats; one numbered source per
 * document, in the order of its strongest chunk.
 *
 * With a model, the question's own ranking is fused with those of the model's rewrite of it into keyword searches
 * (rewrite.ts), by reciprocal rank, the question weighted highest; passage selection then runs on the fused ranking.
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
import type { Store, Tx } from '../db/store';
import {
  estimateTokens,
  searchChunks,
  type SearchFilters,
  type SearchHit,
  type SearchHitChunk,
  type SearchResults,
} from '../search';
import { reciprocalRank } from '../search/embeddings';
import { asksForQuantity, statesQuantity } from './answer-kind';
import type { Passage } from './passages';

type Lane = {
  filters: SearchFilters;
  /** Hits of these sources are dropped (the other lanes own them). */
  excludeSources?: ReadonlySet<string>;
  /** Attached files: always kept, ahead of everything else; an empty query falls back to their beginning. */
  pinned?: boolean;
  /** Verified answers searched first (only those holding every word of the question are kept): a few, unexpanded. */
  answers?: boolean;
};

export type AppRetrievalRequest = {
  orgId: string;
  principals: readonly string[];
  q: string;
  sources: QuerySources;
  /** Upload ids attached to the question or the topic. */
  attachedUploadIds: readonly string[];
  /** Documents at most. */
  limit: number;
  /** Estimated tokens (estimateTokens) of passage text at most, over all passages. */
  budgetTokens: number;
  signal?: AbortSignal;
  /**
   * More searches of the question (the model's rewrite of it), fused with its own ranking. Awaited once the
   * question's own searches are done, so the model writes them while those run; none leaves retrieval as it was.
   */
  rewrites?: Promise<readonly string[]>;
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

async function lanesFor(
  store: Store,
  request: AppRetrievalRequest,
  answers: SearchFilters | null,
): Promise<Lane[]> {
  const { sources } = request;
  // Everything selected (the default): one search over every readable document.
  if (sources.skills.search_all && sources.files.search_all && sources.answers.search_all) {
    return [{ filters: {} }];
  }
  return mergeSourceLanes(await selectedLanes(store, request, answers));
}

async function selectedLanes(
  store: Store,
  request: AppRetrievalRequest,
  answers: SearchFilters | null,
): Promise<Lane[]> {
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
  if (answers) lanes.push({ filters: answers });
  return lanes;
}

/** The selected verified answers as search filters; null when none are selected. */
async function answerFilters(store: Store, request: AppRetrievalRequest): Promise<SearchFilters | null> {
  const { answers } = request.sources;
  if (answers.search_all) return { sources: [ReferenceSource.verifiedAnswers] };
  if (answers.filters.length === 0) return null;
  const ids = await documentIdsOfAnswers(store, request.orgId, answers.filters);
  return ids.length > 0 ? { documentIds: ids } : null;
}

/** Verified answers per question: a few, as only one that answers the question is cited first. */
const ANSWERS_SEARCHED = 3;

/**
 * The selected verified answers, searched on their own (they are ranked with everything else too), so one that
 * answers the question is found and cited first however the rest ranks. A blank question (an attached file alone)
 * holds no words for an answer to hold; where the asker can read no verified answer there is nothing to search
 * (a search filtered to rows that do not exist still walks the index for the question's words).
 */
async function answersLane(
  store: Store,
  request: AppRetrievalRequest,
  filters: SearchFilters | null,
): Promise<Lane | null> {
  if (!filters || request.q.trim() === '' || request.principals.length === 0) return null;
  const [readable] = await store.db
    .select({ id: documentChunks.id })
    .from(documentChunks)
    .where(
      and(
        eq(documentChunks.orgId, request.orgId),
        eq(documentChunks.source, ReferenceSource.verifiedAnswers),
        sql`${documentChunks.acl} && ${sql.param([...request.principals])}::text[]`,
      ),
    )
    .limit(1);
  return readable ? { filters, answers: true } : null;
}

async function attachedLane(store: Store, request: AppRetrievalRequest): Promise<Lane | null> {
  if (request.attachedUploadIds.length === 0) return null;
  const ids = await documentIdsOfUploads(store, request.orgId, request.attachedUploadIds);
  return ids.length > 0 ? { filters: { documentIds: ids }, pinned: true } : null;
}

async function searchLane(
  store: Store,
  request: AppRetrievalRequest,
  lane: Lane,
  q = request.q,
): Promise<Pick<SearchResults, 'hits' | 'terms' | 'matchedTerms'>> {
  const base = {
    orgId: request.orgId,
    principals: request.principals,
    filters: lane.filters,
    limit: lane.answers ? ANSWERS_SEARCHED : lane.excludeSources ? request.limit * 2 : request.limit,
    count: false,
    // the question's own words are what a verified answer must hold: feedback terms would only cost time
    ...(lane.answers ? { feedback: false } : {}),
  };
  const found = await searchChunks(store, { ...base, q });
  let { hits } = found;
  // An attached file the question's words do not match is still what the asker wants read.
  if (lane.pinned && hits.length === 0) ({ hits } = await searchChunks(store, { ...base, q: '' }));
  return {
    hits: lane.excludeSources ? hits.filter((hit) => !lane.excludeSources!.has(hit.source)) : hits,
    terms: found.terms,
    matchedTerms: found.matchedTerms,
  };
}

/**
 * The relevance floor. BM25 scores do not say whether a question is covered at all: one rare word in common with a
 * page scores as high as a paraphrase of what the page answers. What does say it is the question's own terms: when
 * at least half of them occur in nothing the asker can read ("capital of France?" in a company's documents, where
 * only "capitals" is found), the sources do not cover the question, and whatever matched its other words is not an
 * answer to it. A term a search found is known; the others are looked up in every readable chunk (a search only
 * looks at its best candidates), with the ACL inside the query, unless the known ones already make the majority.
 */
async function coversQuestion(
  store: Store,
  request: AppRetrievalRequest,
  terms: readonly string[],
  found: ReadonlySet<string>,
): Promise<boolean> {
  const unsure = terms.filter((term) => !found.has(term));
  if (unsure.length * 2 < terms.length || terms.length === 0) return true;
  if (request.principals.length === 0) return false;
  const result = await store.db.execute(sql`
    SELECT t.lexeme FROM unnest(${sql.param(unsure)}::text[]) AS t(lexeme)
    WHERE NOT EXISTS (
      SELECT 1 FROM document_chunks c
      WHERE c.org_id = ${request.orgId}::uuid AND c.acl && ${sql.param([...request.principals])}::text[]
        AND c.search @@ quote_literal(t.lexeme)::tsquery)`);
  return result.rows.length * 2 < terms.length;
}

/** A chunk of a chosen document as the model may read it: its indexed text (title, heading path, slice). */
type ChunkText = {
  id: string;
  documentId: string;
  ord: number;
  /** The indexed text: title and heading path, a blank line, then the body slice `[start, end)`. */
  body: string;
  start: number;
  end: number;
};

/** Chunks of one chosen document read at most: a long document's matching chunks first, then its opening ones. */
const CHUNKS_READ_PER_DOCUMENT = 256;

/**
 * The chunks of the chosen documents, with the ACL inside the query: a chunk the asker cannot read is never fetched,
 * whatever the hits said. Every chunk of a document is read (up to CHUNKS_READ_PER_DOCUMENT, its matching ones
 * first), not only those that matched: the one that answers a paraphrase often shares no word with it. Read in the
 * same transaction as the bodies the joins need, so offsets and bodies agree.
 */
async function readDocumentChunks(
  tx: Tx,
  request: Pick<AppRetrievalRequest, 'orgId' | 'principals'>,
  documentIds: readonly string[],
  matched: readonly string[],
): Promise<ChunkText[]> {
  if (request.principals.length === 0 || documentIds.length === 0) return [];
  const result = await tx.execute(sql`
    SELECT id, document_id, ord, body, start_offset, end_offset FROM (
      SELECT c.id, c.document_id, c.ord, c.body, c.start_offset, c.end_offset,
        row_number() OVER (PARTITION BY c.document_id
          ORDER BY c.id = ANY(${sql.param([...matched])}::uuid[]) DESC, c.ord) AS place
      FROM document_chunks c
      WHERE c.org_id = ${request.orgId}::uuid AND c.acl && ${sql.param([...request.principals])}::text[]
        AND c.document_id = ANY(${sql.param([...documentIds])}::uuid[])) AS read
    WHERE place <= ${CHUNKS_READ_PER_DOCUMENT}`);
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    id: row.id as string,
    documentId: row.document_id as string,
    ord: Number(row.ord),
    body: row.body as string,
    start: Number(row.start_offset ?? 0),
    end: Number(row.end_offset ?? 0),
  }));
}

const placeOf = (place: { documentId: string; ord: number }) => `${place.documentId}:${place.ord}`;

/** Bodies of the readable documents among these (for the text between two joined chunks). */
async function readBodies(
  tx: Tx,
  request: Pick<AppRetrievalRequest, 'orgId' | 'principals'>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: documents.id, body: documents.body })
    .from(documents)
    .where(
      and(
        eq(documents.orgId, request.orgId),
        sql`${documents.acl} && ${sql.param([...request.principals])}::text[]`,
        inArray(documents.id, [...ids]),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.body]));
}

/** The body slice of an indexed chunk text (chunking.ts: the indexed text ends with it). */
function sliceOf(chunk: ChunkText): string {
  const length = chunk.end - chunk.start;
  return length > 0 ? chunk.body.slice(chunk.body.length - length) : '';
}

/** Text compared for duplicates: the same words in the same order, whatever the spacing and case. */
const comparable = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Between two passages of one source, as the model reads them. */
export const PASSAGE_SEPARATOR = '\n…\n';
const SEPARATOR_TOKENS = estimateTokens(PASSAGE_SEPARATOR);

/** Where a hit stands: attached files first, then verified answers that match, then the rest by score. */
const TIER = { attached: 0, verifiedAnswer: 1, ranked: 2 } as const;
type Tier = (typeof TIER)[keyof typeof TIER];

type Evidence = { hit: SearchHit; tier: Tier; chunkId: string; weight: number };

/**
 * Every chunk of the chosen hits that bears on the question, strongest evidence first. A chunk weighs its document's
 * score times its relevance within the document: its share of the document's best chunk score (within one search
 * that is the search's own chunk score, and it stays on the document's scale when the score is a fusion with the
 * vector signal; a chunk the search did not match has none). A question asking for a figure (answer-kind.ts) is
 * answered by a chunk stating one, whatever words it shares with the question: there, relevance is the mean of that
 * share and whether the chunk states a quantity, so a chunk listing the amounts under a heading the question never
 * names ranks with the chunks that only repeat its words.
 */
function evidenceOf(
  chosen: readonly { hit: SearchHit; tier: Tier }[],
  chunks: readonly ChunkText[],
  quantity: boolean,
): Evidence[] {
  const byDocument = new Map<string, ChunkText[]>();
  for (const chunk of chunks)
    byDocument.set(chunk.documentId, [...(byDocument.get(chunk.documentId) ?? []), chunk]);
  const evidence = chosen.flatMap(({ hit, tier }) => {
    const best = hit.chunks[0]?.score ?? 0;
    const shares = new Map(hit.chunks.map((chunk) => [chunk.chunkId, best > 0 ? chunk.score / best : 1]));
    return (byDocument.get(hit.documentId) ?? []).flatMap((chunk) => {
      const share = shares.get(chunk.id) ?? 0;
      const relevance = quantity
        ? (share + (statesQuantity(sliceOf(chunk) || chunk.body) ? 1 : 0)) / 2
        : share;
      return relevance > 0 ? [{ hit, tier, chunkId: chunk.id, weight: hit.score * relevance }] : [];
    });
  });
  return evidence.sort((a, b) => a.tier - b.tier || b.weight - a.weight);
}

/**
 * Chooses chunks, strongest evidence first, while they fit the token budget: several of one document when they are
 * the best, none of a document whose chunks are all weaker than what filled the budget. A chunk whose text is
 * already given (the same words, or inside a chosen chunk) is dropped. Each chosen chunk brings the chunks around
 * it (the next, then the one before) on its evidence: a passage runs on past the words that matched, and the
 * sentence that answers a paraphrase often shares none of them.
 */
function chooseChunks(
  evidence: readonly Evidence[],
  chunks: readonly ChunkText[],
  budgetTokens: number,
): { picks: Evidence[]; texts: Map<string, ChunkText> } {
  const byId = new Map(chunks.map((chunk) => [chunk.id, chunk]));
  const byPlace = new Map(chunks.map((chunk) => [placeOf(chunk), chunk]));
  const picks: Evidence[] = [];
  const texts = new Map<string, ChunkText>();
  const given: string[] = [];
  let left = budgetTokens;
  const offer = (item: Evidence, chunk: ChunkText): boolean => {
    const text = comparable(sliceOf(chunk) || chunk.body);
    if (texts.has(chunk.id) || given.some((other) => other.includes(text))) return false;
    const cost = estimateTokens(chunk.body) + SEPARATOR_TOKENS;
    if (cost > left) return false;
    left -= cost;
    given.push(text);
    picks.push(item);
    texts.set(chunk.id, chunk);
    return true;
  };
  // a neighbour waits in line at half its chunk's weight (its own evidence, if any, is in line already), and brings
  // no neighbours of its own: a passage runs on by one chunk, not through the whole document
  const queue: (Evidence & { neighbour?: true })[] = [...evidence];
  const order = (a: Evidence, b: Evidence) => a.tier - b.tier || b.weight - a.weight;
  while (queue.length > 0) {
    const item = queue.shift()!;
    const chunk = byId.get(item.chunkId)!;
    if (!offer(item, chunk) || item.neighbour) continue;
    for (const step of [1, -1]) {
      const next = byPlace.get(placeOf({ documentId: chunk.documentId, ord: chunk.ord + step }));
      if (!next || texts.has(next.id)) continue;
      const neighbour = { ...item, chunkId: next.id, weight: item.weight / 2, neighbour: true as const };
      const at = queue.findIndex((other) => order(neighbour, other) < 0);
      queue.splice(at < 0 ? queue.length : at, 0, neighbour);
    }
  }
  return { picks, texts };
}

/**
 * The passages of one document: runs of chosen chunks of adjacent `ord` read as one (the first chunk's title and
 * heading path, then the body from its slice to the last one's end), runs in the order of their best evidence.
 */
function documentText(
  picks: readonly Evidence[],
  texts: ReadonlyMap<string, ChunkText>,
  body: string | undefined,
): string {
  const chunks = picks.map((pick) => texts.get(pick.chunkId)!);
  const byOrd = [...chunks].sort((a, b) => a.ord - b.ord);
  const runs: ChunkText[][] = [];
  for (const chunk of byOrd) {
    const run = runs.at(-1);
    if (run && body !== undefined && chunk.ord === run.at(-1)!.ord + 1) run.push(chunk);
    else runs.push([chunk]);
  }
  const rank = (run: ChunkText[]) => Math.min(...run.map((chunk) => chunks.indexOf(chunk)));
  return runs
    .sort((a, b) => rank(a) - rank(b))
    .map((run) => {
      const first = run[0]!;
      const end = Math.max(...run.map((chunk) => chunk.end));
      return run.length > 1 ? first.body + body!.slice(first.end, end) : first.body;
    })
    .join(PASSAGE_SEPARATOR);
}

function passageOf(hit: SearchHit, text: string): Passage {
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
 * The passages of the chosen hits within the budget: one source per document, in the order of its strongest
 * chosen chunk, holding every chunk of it that was chosen. A document none of whose chunks were chosen is left out.
 */
async function passagesOf(
  store: Store,
  request: AppRetrievalRequest,
  chosen: readonly { hit: SearchHit; tier: Tier }[],
): Promise<Passage[]> {
  const quantity = asksForQuantity(request.q);
  // one snapshot: the offsets of the chunks and the bodies they slice agree
  return store.db.transaction(
    async (tx) => {
      const chunks = await readDocumentChunks(
        tx,
        request,
        chosen.map(({ hit }) => hit.documentId),
        chosen.flatMap(({ hit }) => hit.chunks.map((chunk) => chunk.chunkId)),
      );
      const evidence = evidenceOf(chosen, chunks, quantity);
      const { picks, texts } = chooseChunks(evidence, chunks, request.budgetTokens);
      const byDocument = new Map<string, Evidence[]>();
      for (const pick of picks)
        byDocument.set(pick.hit.documentId, [...(byDocument.get(pick.hit.documentId) ?? []), pick]);
      const joined = [...byDocument].filter(([, items]) => {
        const ords = new Set(items.map((item) => texts.get(item.chunkId)!.ord));
        return [...ords].some((ord) => ords.has(ord + 1));
      });
      const bodies = await readBodies(
        tx,
        request,
        joined.map(([documentId]) => documentId),
      );
      return [...byDocument.values()].map((items) =>
        passageOf(items[0]!.hit, documentText(items, texts, bodies.get(items[0]!.hit.documentId))),
      );
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** One search's documents, best first, each once (lanes may overlap). */
function rankingOf(hits: readonly SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  return [...hits]
    .sort((a, b) => b.score - a.score)
    .filter((hit) => {
      if (seen.has(hit.documentId)) return false;
      seen.add(hit.documentId);
      return true;
    });
}

/** Weight of each ranking in the fusion: the asker's own words are the surest evidence of what was asked. */
const QUESTION_WEIGHT = 1;
const REWRITE_WEIGHT = 0.5;

/**
 * Reciprocal-rank fusion (the vector signal's reciprocalRank) of the question's ranking, first, with its rewrites': ranks,
 * as each search's BM25 scores are on the scale of its own words. A document keeps the first hit found of it (the
 * question's, whose snippet holds the asker's words, when the question found it) and every matching chunk any
 * search found, each as strong as its share of that search's best chunk times the search's weight, so passage
 * selection (evidenceOf) still prefers within a document the chunks that matched best.
 */
function fuseWithRewrites(rankings: readonly SearchHit[][]): SearchHit[] {
  const fused = new Map<string, { hit: SearchHit; score: number; chunks: Map<string, SearchHitChunk> }>();
  rankings.forEach((ranking, which) => {
    const weight = which === 0 ? QUESTION_WEIGHT : REWRITE_WEIGHT;
    ranking.forEach((hit, rank) => {
      const entry = fused.get(hit.documentId) ?? { hit, score: 0, chunks: new Map<string, SearchHitChunk>() };
      fused.set(hit.documentId, entry);
      entry.score += weight * reciprocalRank(rank);
      const best = hit.chunks[0]?.score ?? 0;
      for (const chunk of hit.chunks) {
        const strength = (weight / QUESTION_WEIGHT) * (best > 0 ? chunk.score / best : 1);
        if ((entry.chunks.get(chunk.chunkId)?.score ?? -1) < strength)
          entry.chunks.set(chunk.chunkId, { ...chunk, score: strength });
      }
    });
  });
  return [...fused.values()]
    .map(({ hit, score, chunks }) => ({
      ...hit,
      score,
      chunks: [...chunks.values()].sort((a, b) => b.score - a.score),
    }))
    .sort((a, b) => b.score - a.score);
}

/** The ranking of each of the rewrite's searches, over the lanes the question's own ranking comes from. */
async function rewriteRankings(
  store: Store,
  request: AppRetrievalRequest,
  lanes: readonly Lane[],
): Promise<SearchHit[][]> {
  const queries = (await request.rewrites) ?? [];
  if (lanes.length === 0) return [];
  return Promise.all(
    queries.map(async (q) => {
      const results = await Promise.all(lanes.map((lane) => searchLane(store, request, lane, q)));
      return rankingOf(results.flatMap((result) => result.hits));
    }),
  );
}

/**
 * A verified answer answers the question when it holds every one of the question's words: one that shares only some
 * ("how long …") is an ordinary document, ranked with the rest.
 */
const answersQuestion = (hit: SearchHit) => hit.missingTerms.length === 0;

/**
 * The best passages for a question over the selected apps, files and verified answers, within the request's token
 * budget: attached files first, then verified answers that answer the question, then the strongest evidence of the
 * best `limit` documents (of the question's ranking fused with its rewrites', when there are some). A question below
 * the relevance floor gets only its attached files.
 */
export async function retrieveFromApps(store: Store, request: AppRetrievalRequest): Promise<Passage[]> {
  const attached = await attachedLane(store, request);
  const answerSources = await answerFilters(store, request);
  const answers = await answersLane(store, request, answerSources);
  const lanes = await lanesFor(store, request, answerSources);
  const all = [...(attached ? [attached] : []), ...(answers ? [answers] : []), ...lanes];
  const results = await Promise.all(all.map((lane) => searchLane(store, request, lane)));
  request.signal?.throwIfAborted();
  const terms = results[0]?.terms ?? [];
  const found = new Set(results.flatMap((result) => result.matchedTerms));
  const covered = await coversQuestion(store, request, terms, found);
  const tiered: { hit: SearchHit; tier: Tier }[] = [];
  const ranked: SearchHit[] = [];
  results.forEach(({ hits }, index) => {
    const lane = all[index]!;
    // attached files are what the asker wants read, whether or not the question's words are in them
    if (lane.pinned) tiered.push(...hits.map((hit) => ({ hit, tier: TIER.attached })));
    else if (!covered) return;
    else if (lane.answers)
      tiered.push(...hits.filter(answersQuestion).map((hit) => ({ hit, tier: TIER.verifiedAnswer })));
    else ranked.push(...hits);
  });
  // The floor is the question's own: a rewrite adds words the question never had, which an unrelated page may hold.
  const rewritten = covered
    ? await rewriteRankings(
        store,
        request,
        all.filter((lane) => !lane.pinned && !lane.answers),
      )
    : [];
  request.signal?.throwIfAborted();
  const ranking =
    rewritten.length > 0 ? fuseWithRewrites([rankingOf(ranked), ...rewritten]) : rankingOf(ranked);
  const chosen: { hit: SearchHit; tier: Tier }[] = [];
  const seen = new Set<string>();
  for (const entry of [...tiered, ...ranking.map((hit) => ({ hit, tier: TIER.ranked }))]) {
    if (seen.has(entry.hit.documentId)) continue;
    seen.add(entry.hit.documentId);
    chosen.push(entry);
    if (chosen.length >= request.limit) break;
  }
  const passages = await passagesOf(store, request, chosen);
  request.signal?.throwIfAborted();
  return passages;
}

/** SKILL_RETRIEVED's counts: documents per app, in the order apps first appear among the passages. */
export function countByApp(passages: readonly Passage[]): { appName: string; numDocs: number }[] {
  const counts = new Map<string, number>();
  for (const passage of passages) counts.set(passage.source, (counts.get(passage.source) ?? 0) + 1);
  return [...counts].map(([appName, numDocs]) => ({ appName, numDocs }));
}
