// `npm run bench:search [-- --large] [-- --database-url postgres://…]`: indexes real text (the eval collections,
// /usr/share/doc and the man pages of this machine) into 100k chunks (1M with --large), with ACLs drawn for
// 1,000 users and 200 groups, then prints indexing speed, index size and `_search` latency through the HTTP API
// (top 10, the viewer's ACL, facets by app and type) for 500 queries as random users. Figures, never asserts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { SearchResponse } from '../common/api/search';
import { aclGroupMembers, users } from '../server/db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../server/db/store';
import { scopeOf } from '../server/api/search/service';
import { spellCorrect } from '../server/api/search/spelling';
import {
  countByObjectType,
  countBySource,
  initSearch,
  searchChunks,
  upsertDocuments,
  type IndexDocument,
} from '../server/search';
import { pick, sample, seededRandom } from '../server/search/testing';
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
const QUERIES = 500;
const BATCH = 250;
const DOC_CHARS = 3000;
const SOURCES = ['notion', 'confluence', 'gdrive', 'slack', 'jira', 'github'];
const TYPES = ['Articles', 'Files', 'Messages', 'Tasks'];
const EVAL = path.resolve(import.meta.dirname, '../../shared/eval');

const isBinary = (text: string) => [...text.slice(0, 2000)].some((ch) => ch.charCodeAt(0) < 9);

/** Texts of this machine: eval abstracts, documentation and man pages (gunzipped, roff markup stripped). */
function* realTexts(): Generator<{ title: string; text: string }> {
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
function* documentsFrom(random: () => number, principals: string[]): Generator<IndexDocument> {
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

function evalQueries(): string[] {
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

async function chunkCount(store: Store, orgId: string): Promise<number> {
  const result = await store.db.execute(
    sql`SELECT chunk_count::int AS n FROM search_stats WHERE org_id = ${orgId}::uuid`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

async function run(store: Store, label: string): Promise<void> {
  const random = seededRandom(42);
  const { engine } = await initSearch(store);
  const org = await createOrg(store.db, { domain: `bench-${Date.now()}.test` });
  const emails = Array.from({ length: USERS }, (_, i) => `user${i}@bench.test`);
  const inserted = await store.db
    .insert(users)
    .values(emails.map((email) => ({ orgId: org.id, email, status: 'SIGNED_UP' as const })))
    .returning();
  const groups = Array.from({ length: GROUPS }, (_, g) => `group:gdrive:g${g}`);
  const memberships = emails.flatMap((email) =>
    sample(random, groups, 1 + Math.floor(random() * 6)).map((groupKey) => ({
      orgId: org.id,
      groupKey,
      memberEmail: email,
    })),
  );
  for (let i = 0; i < memberships.length; i += 1000)
    await store.db.insert(aclGroupMembers).values(memberships.slice(i, i + 1000));
  const principals = [...emails.map((email) => `user:${email}`), ...groups];

  console.log(`\n## ${label} (${engine}), target ${TARGET_CHUNKS.toLocaleString('en')} chunks`);
  const started = performance.now();
  let chunks = 0;
  let docs = 0;
  let batch: IndexDocument[] = [];
  for (const doc of documentsFrom(random, principals)) {
    batch.push(doc);
    if (batch.length < BATCH) continue;
    await upsertDocuments(store.db, org.id, batch);
    docs += batch.length;
    batch = [];
    chunks = await chunkCount(store, org.id);
    if (docs % 10_000 === 0) {
      const rate = chunks / ((performance.now() - started) / 1000);
      console.log(`  ${chunks.toLocaleString('en')} chunks, ${rate.toFixed(0)} chunks/s`);
    }
    if (chunks >= TARGET_CHUNKS) break;
  }
  const seconds = (performance.now() - started) / 1000;
  await store.db.execute(sql`ANALYZE`);
  const size = await store.db.execute(sql`
    SELECT pg_total_relation_size('document_chunks')::float8 AS chunks,
      pg_total_relation_size('documents')::float8 AS documents,
      pg_total_relation_size('search_term_stats')::float8 AS terms`);
  const mb = (value: unknown) => `${(Number(value) / 1024 / 1024).toFixed(0)} MB`;
  const row = size.rows[0]!;
  console.log(
    `indexing: ${docs.toLocaleString('en')} documents, ${chunks.toLocaleString('en')} chunks in ${seconds.toFixed(0)} s = ${(chunks / seconds).toFixed(0)} chunks/s`,
  );
  console.log(
    `size: document_chunks ${mb(row.chunks)}, documents ${mb(row.documents)}, search_term_stats ${mb(row.terms)}`,
  );

  const server = await createTestServer({ store });
  try {
    const tokens = await Promise.all(
      sample(random, inserted, 50).map(async (user) => (await loginTokensFor(server.ctx, user)).id_token),
    );
    const queries = evalQueries();
    const call = (q: string, token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/_search',
        headers: { authorization: `Bearer ${token}` },
        payload: { q, page: 0, page_size: 10 },
      });
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
    console.log(`_search (top 10, ACL, facets by app and type, did-you-mean, history), ${QUERIES} queries:`);
    console.log(
      `  p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  mean ${ms(s.mean)}  (avg ${(hits / QUERIES).toFixed(1)} hits)`,
    );
    // where the time goes: the same queries, one part of `_search` at a time
    const scopes = await Promise.all(
      sample(random, inserted, 50).map((user) =>
        scopeOf(store, { userId: user.id, orgId: org.id, email: user.email, admin: false, sessionId: '' }),
      ),
    );
    const parts: Record<string, (q: string, scope: (typeof scopes)[number]) => Promise<unknown>> = {
      'searchChunks (top 10, count, feedback)': (q, scope) => searchChunks(store, { ...scope, q, limit: 10 }),
      'countBySource + countByObjectType': (q, scope) =>
        Promise.all([countBySource(store, { ...scope, q }), countByObjectType(store, { ...scope, q })]),
      'did-you-mean': (q, scope) =>
        spellCorrect(
          store.db,
          org.id,
          sql`c.org_id = ${org.id}::uuid AND c.acl && ${sql.param(scope.principals)}::text[]`,
          q,
        ),
    };
    for (const [name, part] of Object.entries(parts)) {
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t = performance.now();
        await part(queries[i % queries.length]!, pick(random, scopes));
        times.push(performance.now() - t);
      }
      const p = summarise(times);
      console.log(`  ${name}: p50 ${ms(p.p50)}  p95 ${ms(p.p95)}  p99 ${ms(p.p99)}`);
    }
  } finally {
    await server.app.close();
  }
}

const embedded = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
try {
  await run(embedded, 'embedded PGlite (memory)');
} finally {
  await embedded.close();
}
if (databaseUrl) {
  const server = await openStore({ databaseUrl });
  try {
    await run(server, `PostgreSQL server ${new URL(databaseUrl).host}`);
  } finally {
    await server.close();
  }
}
