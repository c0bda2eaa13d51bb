// `npm run bench:search [-- --large] [-- --chunks N] [-- --queries N] [-- --data-dir DIR] [-- --database-url
// postgres://… [--no-embedded]]`: indexes real text (the eval collections, /usr/share/doc and the man pages of this
// machine) into 100k chunks (1M with --large), with ACLs drawn for 1,000 users and 200 groups, then prints indexing
// speed, index size and `_search` latency through the HTTP API (top 10, the viewer's ACL, facets by app and
// type) for 500 long questions and 500 1-3 word queries as random users. Figures, never asserts.
// With --data-dir (the embedded store on disk instead of in memory) or a server database, an index built by an
// earlier run with at least the target number of chunks is reused: a 1M-chunk index is built once and measured
// as often as the search code changes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { asc, eq, sql } from 'drizzle-orm';
import type { SearchResponse } from '../common/api/search';
import { aclGroupMembers, users, type User } from '../server/db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../server/db/store';
import { scopeOf } from '../server/api/search/service';
import { spellCorrect } from '../server/api/search/spelling';
import { facetCounts, initSearch, searchChunks, upsertDocuments, type IndexDocument } from '../server/search';
import { pick, sample } from '../server/search/testing';
import { seededRandom } from '../server/testing/random';
import { createOrg, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer } from '../server/testing/server';
import { ms, summarise } from './stats';

const args = process.argv.slice(2);
const large = args.includes('--large');
const urlAt = args.indexOf('--database-url');
const databaseUrl = urlAt >= 0 ? args[urlAt + 1] : undefined;
const chunksAt = args.indexOf('--chunks');
const TARGET_CHUNKS = chunksAt >= 0 ? Number(args[chunksAt + 1]) : large ? 1_000_000 : 100_000;
const USERS = 1000;
const GROUPS = 200;
const queriesAt = args.indexOf('--queries');
const QUERIES = queriesAt >= 0 ? Number(args[queriesAt + 1]) : 500;
const PART_QUERIES = Math.min(200, QUERIES);
const BATCH = 250;
const DOC_CHARS = 3000;
const SOURCES = ['notion', 'confluence', 'gdrive', 'slack', 'jira', 'github'];
const TYPES = ['Articles', 'Files', 'Messages', 'Tasks'];
const dataDirAt = args.indexOf('--data-dir');
const dataDir = dataDirAt >= 0 ? args[dataDirAt + 1] : undefined;
/** The bench's org: one fixed domain, so a kept store's index is found again. */
const BENCH_DOMAIN = 'bench-search.test';
const EVAL = path.resolve(import.meta.dirname, '../../shared/eval');

/** Run as a script (not imported for its corpus builder). */
const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

const isBinary = (text: string) => [...text.slice(0, 2000)].some((ch) => ch.charCodeAt(0) < 9);

/** Texts of this machine: eval abstracts, documentation and man pages (gunzipped, roff markup stripped). */
export function* realTexts(): Generator<{ title: string; text: string }> {
  for (const collection of ['cranfield', 'cisi']) {
    const file = path.join(EVAL, collection, 'corpus.jsonl');
    try {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const doc = JSON.parse(line) as { title?: string; text: string };
        yield { title: doc.title || doc.text.slice(0, 60), text: doc.text };
      }
    } catch {
      // a missing collection only means less text
    }
  }
  const read = (file: string) => {
    const raw = readFileSync(file);
    return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  };
  const walk = function* (dir: string): Generator<string> {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const full = path.join(dir, name);
      let stat;
      try {
        stat = statSync(full);
      } catch {
        continue;
      }
      if (stat.isDirectory()) yield* walk(full);
      else if (stat.isFile() && stat.size < 2_000_000) yield full;
    }
  };
  for (const file of walk('/usr/share/man')) {
    try {
      const text = read(file)
        .replace(/^\.\\".*$/gm, '')
        .replace(/^\.[A-Za-z]+\s?/gm, '')
        .replace(/\\f[BIRP]|\\-|\\\(..|\\&|\\e/g, ' ');
      if (isBinary(text)) continue;
      yield { title: path.basename(file).replace(/\.gz$/, ''), text };
    } catch {
      continue;
    }
  }
  for (const file of walk('/usr/share/doc')) {
    if (!/(README|changelog|NEWS|\.txt|copyright)/i.test(file)) continue;
    try {
      const text = read(file);
      if (isBinary(text)) continue;
      yield { title: path.relative('/usr/share/doc', file), text };
    } catch {
      continue;
    }
  }
}

/** Documents of about DOC_CHARS characters cut from the texts, cycling (with new ids) until asked to stop. */
export function* documentsFrom(random: () => number, principals: string[]): Generator<IndexDocument> {
  let n = 0;
  for (let round = 0; ; round++) {
    for (const { title, text } of realTexts()) {
      for (let at = 0; at < text.length; at += DOC_CHARS) {
        const body = text.slice(at, at + DOC_CHARS).trim();
        if (body.length < 200) continue;
        const acl = random() < 0.2 ? ['org'] : sample(random, principals, 1 + Math.floor(random() * 3));
        yield {
          source: pick(random, SOURCES),
          externalId: `b${n++}`,
          title: round === 0 ? title : `${title} (${round})`,
          body,
          objectType: pick(random, TYPES),
          fileType: pick(random, ['md', 'pdf', 'docx', 'html', 'message']),
          modifiedTime: new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 5 * 365) * 86_400_000),
          acl,
        };
      }
    }
  }
}

export function evalQueries(): string[] {
  const out: string[] = [];
  for (const collection of ['cranfield', 'cisi']) {
    try {
      for (const line of readFileSync(path.join(EVAL, collection, 'queries.jsonl'), 'utf8').split('\n')) {
        if (line.trim()) out.push((JSON.parse(line) as { text: string }).text.slice(0, 300));
      }
    } catch {
      continue;
    }
  }
  return out.length > 0 ? out : ['boundary layer', 'information retrieval', 'network configuration'];
}

/** Short queries as people type them: 1–3 consecutive words (4+ letters) of the eval questions. */
export function shortQueries(random: () => number, questions: readonly string[]): string[] {
  return questions.flatMap((question) => {
    const words = question.toLowerCase().match(/[a-z]{4,}/g) ?? [];
    if (words.length === 0) return [];
    const length = Math.min(words.length, 1 + Math.floor(random() * 3));
    const at = Math.floor(random() * (words.length - length + 1));
    return [words.slice(at, at + length).join(' ')];
  });
}

/**
 * `count` members of the org, each in 1–6 of `groupCount` groups; `principals` are what the generated documents'
 * ACLs pick from.
 */
export async function seedMembers(
  store: Store,
  random: () => number,
  orgId: string,
  emailDomain: string,
  count: number,
  groupCount: number,
): Promise<{ members: User[]; principals: string[] }> {
  const emails = Array.from({ length: count }, (_, i) => `user${i}@${emailDomain}`);
  const members = await store.db
    .insert(users)
    .values(emails.map((email) => ({ orgId, email, status: 'SIGNED_UP' as const })))
    .returning();
  const groups = Array.from({ length: groupCount }, (_, g) => `group:gdrive:g${g}`);
  const memberships = emails.flatMap((email) =>
    sample(random, groups, 1 + Math.floor(random() * 6)).map((groupKey) => ({
      orgId,
      groupKey,
      memberEmail: email,
    })),
  );
  for (let i = 0; i < memberships.length; i += 1000)
    await store.db.insert(aclGroupMembers).values(memberships.slice(i, i + 1000));
  return { members, principals: [...emails.map((email) => `user:${email}`), ...groups] };
}

async function chunkCount(store: Store, orgId: string): Promise<number> {
  const result = await store.db.execute(
    sql`SELECT chunk_count::int AS n FROM search_stats WHERE org_id = ${orgId}::uuid`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** Indexes generated documents through `upsertDocuments` until the org holds TARGET_CHUNKS chunks. */
async function buildIndex(store: Store, random: () => number, orgId: string): Promise<void> {
  const { principals } = await seedMembers(store, random, orgId, 'bench.test', USERS, GROUPS);
  const started = performance.now();
  let chunks = 0;
  let docs = 0;
  let batch: IndexDocument[] = [];
  for (const doc of documentsFrom(random, principals)) {
    batch.push(doc);
    if (batch.length < BATCH) continue;
    await upsertDocuments(store.db, orgId, batch);
    docs += batch.length;
    batch = [];
    chunks = await chunkCount(store, orgId);
    if (docs % 10_000 === 0) {
      const rate = chunks / ((performance.now() - started) / 1000);
      console.log(`  ${chunks.toLocaleString('en')} chunks, ${rate.toFixed(0)} chunks/s`);
    }
    if (chunks >= TARGET_CHUNKS) break;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `indexing: ${docs.toLocaleString('en')} documents, ${chunks.toLocaleString('en')} chunks in ${seconds.toFixed(0)} s = ${(chunks / seconds).toFixed(0)} chunks/s`,
  );
}

async function run(store: Store, label: string): Promise<void> {
  const random = seededRandom(42);
  const { engine } = await initSearch(store);
  const org = await createOrg(store.db, { domain: BENCH_DOMAIN });
  console.log(`\n## ${label} (${engine}), target ${TARGET_CHUNKS.toLocaleString('en')} chunks`);
  const kept = await chunkCount(store, org.id);
  if (kept >= TARGET_CHUNKS) {
    console.log(
      `indexing: reusing the ${kept.toLocaleString('en')} chunks an earlier run indexed in this store`,
    );
  } else {
    if (kept > 0)
      throw new Error(`this store holds a smaller bench index (${kept} chunks): start from an empty one`);
    await buildIndex(store, random, org.id);
  }
  const inserted = await store.db
    .select()
    .from(users)
    .where(eq(users.orgId, org.id))
    .orderBy(asc(users.email));
  await store.db.execute(sql`ANALYZE`);
  const size = await store.db.execute(sql`
    SELECT pg_total_relation_size('document_chunks')::float8 AS chunks,
      pg_total_relation_size('documents')::float8 AS documents,
      pg_total_relation_size('search_term_stats')::float8 AS terms`);
  const mb = (value: unknown) => `${(Number(value) / 1024 / 1024).toFixed(0)} MB`;
  const row = size.rows[0]!;
  console.log(
    `size: document_chunks ${mb(row.chunks)}, documents ${mb(row.documents)}, search_term_stats ${mb(row.terms)}`,
  );

  const server = await createTestServer({ store });
  try {
    const tokens = await Promise.all(
      sample(random, inserted, 50).map(async (user) => (await loginTokensFor(server.ctx, user)).id_token),
    );
    const call = (q: string, token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/_search',
        headers: { authorization: `Bearer ${token}` },
        payload: { q, page: 0, page_size: 10 },
      });
    const scopes = await Promise.all(
      sample(random, inserted, 50).map((user) =>
        scopeOf(store, { userId: user.id, orgId: org.id, email: user.email, admin: false, sessionId: '' }),
      ),
    );
    const readable = (principals: readonly string[]) =>
      sql`c.org_id = ${org.id}::uuid AND c.acl && ${sql.param([...principals])}::text[]`;
    const long = evalQueries();
    const sets = { 'long questions': long, '1-3 word queries': shortQueries(random, long) };
    for (const [setName, queries] of Object.entries(sets)) {
      for (let i = 0; i < 20; i++) await call(pick(random, queries), pick(random, tokens)); // warm-up
      const samples: number[] = [];
      let hits = 0;
      for (let i = 0; i < QUERIES; i++) {
        const t = performance.now();
        const res = await call(queries[i % queries.length]!, pick(random, tokens));
        samples.push(performance.now() - t);
        if (res.statusCode !== 200) throw new Error(`_search answered ${res.statusCode}: ${res.body}`);
        hits += res.json<SearchResponse>().hits.length;
      }
      const s = summarise(samples);
      console.log(
        `_search, ${setName} (top 10, ACL, facets by app and type, did-you-mean, history), ${QUERIES} queries:`,
      );
      console.log(
        `  p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  mean ${ms(s.mean)}  (avg ${(hits / QUERIES).toFixed(1)} hits)`,
      );
      // where the time goes: the same queries, one part of `_search` at a time
      const parts: Record<string, (q: string, scope: (typeof scopes)[number]) => Promise<unknown>> = {
        'searchChunks (top 10, feedback)': (q, scope) =>
          searchChunks(store, { ...scope, q, limit: 10, count: false }),
        'facet counts (app and type)': (q, scope) =>
          facetCounts(store, { ...scope, q }, { source: {}, objectType: {} }),
        'did-you-mean (after the search)': async (q, scope) => {
          const { matchedTerms } = await searchChunks(store, { ...scope, q, limit: 10, count: false });
          const started = performance.now();
          await spellCorrect(store.db, org.id, readable(scope.principals), q, new Set(matchedTerms));
          return performance.now() - started;
        },
      };
      for (const [name, part] of Object.entries(parts)) {
        const times: number[] = [];
        for (let i = 0; i < PART_QUERIES; i++) {
          const t = performance.now();
          const own = await part(queries[i % queries.length]!, pick(random, scopes));
          times.push(typeof own === 'number' ? own : performance.now() - t);
        }
        const p = summarise(times);
        console.log(`  ${name}: p50 ${ms(p.p50)}  p95 ${ms(p.p95)}  p99 ${ms(p.p99)}`);
      }
    }
  } finally {
    await server.app.close();
  }
}

if (isMain) {
  if (!args.includes('--no-embedded')) {
    const embedded = await openStore({ databaseUrl: null, dataDir: dataDir ?? MEMORY_DATA_DIR });
    try {
      await run(embedded, dataDir ? `embedded PGlite (${dataDir})` : 'embedded PGlite (memory)');
    } finally {
      await embedded.close();
    }
  }
  if (databaseUrl) {
    const server = await openStore({ databaseUrl });
    try {
      await run(server, `PostgreSQL server ${new URL(databaseUrl).host}`);
    } finally {
      await server.close();
    }
  }
}
