// `npm run bench:quality -- [--engine pg_textsearch|sql] [--database-url URL] [--embeddings-url URL] [COLLECTION_DIR…]`
//
// --embeddings-url fuses the vector signal in (an OpenAI-compatible /embeddings API; EMBEDDING_MODEL and the other
// EMBEDDING_* variables apply as they do to Scout).
//
// Ranking quality on the retrieval test collections (DESIGN §4, ../shared/eval/README.md): each collection is
// indexed through the real indexing path (one org, every document readable by 'org'), each query runs through
// the real search code as a member of that org, the top 100 documents per query go to a TREC run file, and the
// collection's own scorer (score.py) judges it. One configuration for every collection: nothing here is tuned
// per collection.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { orgs } from '../server/db/schema';
import { openStore, type Store } from '../server/db/store';
import {
  configureEmbeddings,
  initSearch,
  loadEmbeddingSettings,
  principalsFor,
  searchChunks,
  upsertDocuments,
  type IndexDocument,
  type SearchEngine,
} from '../server/search/index';
import { createOrg, createUser } from '../server/testing/fixtures';
import { ms, summarise } from './stats';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const evalRoot = path.resolve(repoRoot, '../shared/eval');
const RUN_DEPTH = 100;
const INDEX_BATCH = 200;
const INTERACTIVE_QUERIES = 50;

interface Options {
  engine?: SearchEngine;
  databaseUrl?: string;
  embeddingsUrl?: string;
  collections: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { collections: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--engine') options.engine = argv[++i] as SearchEngine;
    else if (arg === '--database-url') options.databaseUrl = argv[++i];
    else if (arg === '--embeddings-url') options.embeddingsUrl = argv[++i];
    else options.collections.push(path.resolve(arg));
  }
  if (options.collections.length === 0) {
    options.collections = readdirSync(evalRoot)
      .map((name) => path.join(evalRoot, name))
      // a retrieval collection has a corpus; workplace-dev (pages and questions) is bench:answers' set
      .filter((dir) => statSync(dir).isDirectory() && existsSync(path.join(dir, 'corpus.jsonl')))
      .sort();
  }
  return options;
}

const readJsonLines = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

async function benchCollection(dir: string, options: Options, runDir: string): Promise<void> {
  const name = path.basename(dir);
  const corpus = readJsonLines<{ id: string; title?: string; text?: string }>(path.join(dir, 'corpus.jsonl'));
  const queries = readJsonLines<{ id: string; text: string }>(path.join(dir, 'queries.jsonl'));

  // a store of its own per collection: pg_textsearch's statistics are per index, not per org
  const store: Store = await openStore(
    options.databaseUrl ? { databaseUrl: options.databaseUrl } : { memory: true },
  );
  if (options.embeddingsUrl) {
    const settings = loadEmbeddingSettings({ ...process.env, EMBEDDING_BASE_URL: options.embeddingsUrl });
    configureEmbeddings(store.db, { settings });
  }
  const domain = `bench-${name}-${Date.now().toString(36)}.example.com`;
  const org = await createOrg(store.db, { domain });
  try {
    const viewer = await createUser(store.db, org, { email: `reader@${domain}` });
    await initSearch(store);

    const indexStarted = performance.now();
    for (let i = 0; i < corpus.length; i += INDEX_BATCH) {
      const batch: IndexDocument[] = corpus.slice(i, i + INDEX_BATCH).map((doc) => ({
        source: 'bench',
        externalId: doc.id,
        title: doc.title ?? '',
        body: doc.text ?? '',
        acl: ['org'],
      }));
      await upsertDocuments(store.db, org.id, batch);
    }
    const indexSeconds = (performance.now() - indexStarted) / 1000;

    const principals = await principalsFor(store.db, org.id, viewer.email);
    const lines: string[] = [];
    const latencies: number[] = [];
    let engine: SearchEngine | undefined;
    for (const query of queries) {
      const started = performance.now();
      const results = await searchChunks(store, {
        orgId: org.id,
        principals,
        q: query.text,
        limit: RUN_DEPTH,
        engine: options.engine,
        count: false,
        snippets: false,
      });
      latencies.push(performance.now() - started);
      engine = results.engine;
      // scores strictly decreasing, so the scorer's tie-break cannot reorder what search ranked
      let previous = Number.POSITIVE_INFINITY;
      results.hits.forEach((hit, rank) => {
        const score = Math.min(hit.score, previous - 1e-9);
        previous = score;
        lines.push(`${query.id} Q0 ${hit.externalId} ${rank + 1} ${score.toFixed(9)} scout`);
      });
    }
    // what an interactive search costs: the first page with its total, snippets and highlights
    const interactive: number[] = [];
    for (const query of queries.slice(0, INTERACTIVE_QUERIES)) {
      const started = performance.now();
      await searchChunks(store, { orgId: org.id, principals, q: query.text, engine: options.engine });
      interactive.push(performance.now() - started);
    }
    const runFile = path.join(runDir, `${name}.run`);
    writeFileSync(runFile, `${lines.join('\n')}\n`);
    const scored = JSON.parse(
      execFileSync('python3', [path.join(evalRoot, 'score.py'), dir, runFile], { encoding: 'utf8' }).trim(),
    ) as Record<string, number>;
    const latency = summarise(latencies);
    const page = summarise(interactive);
    console.log(
      `${name}: ${corpus.length} docs indexed in ${indexSeconds.toFixed(1)} s, ${queries.length} queries ` +
        `(${engine}, ${store.kind}) top 100 p50 ${ms(latency.p50)} p95 ${ms(latency.p95)}, ` +
        `first page p50 ${ms(page.p50)} p95 ${ms(page.p95)}; ` +
        `MAP@100 ${scored['map@100']!.toFixed(3)} R@100 ${scored['recall@100']!.toFixed(3)} ` +
        `MRR@10 ${scored['mrr@10']!.toFixed(3)} nDCG@10 ${scored['ndcg@10']!.toFixed(3)}`,
    );
  } finally {
    if (options.databaseUrl) await store.db.delete(orgs).where(eq(orgs.id, org.id));
    await store.close();
  }
}

const options = parseArgs(process.argv.slice(2));
const runDir = mkdtempSync(path.join(os.tmpdir(), 'scout-quality-'));
for (const dir of options.collections) await benchCollection(dir, options, runDir);
console.log(`run files: ${runDir}`);
