// `npm run bench:ingest [-- --documents N] [-- --database-url postgres://…]` (or `npm run bench -- ingest`) prints
// figures for two halves, never asserts.
// Uploads: a mix of formats sent through POST /document_uploads in requests of 50, parsed in worker threads and
// indexed by the job worker; files and chunks per second for the upload (parse + store) and for indexing, and the
// process's peak memory. BENCH_UPLOADS sets the number of files (default 200).
// A source: the SDK's example connector full-syncs N documents (default 50,000) of real text from its fake notes
// API on 127.0.0.1 through the real sync engine and job worker, in this process, into the embedded store and, with
// --database-url, a PostgreSQL database (migrated on open; create it first); documents and chunks per second, and
// resident memory sampled through the sync.
// Connector rows (bench/connector-rows.ts): per connector against its fake (the SDK's example and every vendor
// connector; --connector APP for one), 4 connections, each of a CONNECTOR_ITEMS-item workspace (default 20,000;
// --connector-items N), full-sync at once through the job worker's lanes: items and indexed chunks per second; then
// 100 changes in each workspace and an incremental sync of all 4: seconds until all are done. Each row also counts
// the requests its busiest connection made and, for a connector that publishes a request rate, the least time that
// rate allows them (the vendor floor); --unpaced lifts that rate for the rows, so their times are Scout's own.
// A zip bomb-ish upload: a zip inflating to BENCH_HEALTH_MB (default 200) MB of plain text, uploaded and indexed
// by the worker in this process (as `npm start` runs it) on the embedded store, while /health is called every
// 20 ms: its p50/p99/max latency and the event loop's longest pause.
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { count, eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import type { UploadListResponse, UploadResponse } from '../common/api/uploads';
import { ConnectionStatus } from '../common/connection-status';
import { UPLOAD_MAX_FILES } from '../common/limits';
import { notesConnector } from '../connectors/sdk/example';
import { seedNotes, startNotesFake } from '../connectors/sdk/example/fake';
import { appConnections, documentChunks, documents } from '../server/db/schema';
import { generateSecretKey, setDefaultSecretKey } from '../server/db/secrets';
import { MEMORY_DATA_DIR, openStore, type Store } from '../server/db/store';
import { runWorker } from '../server/jobs/worker';
import { createLogger } from '../server/logger';
import { makeDocx, makePdf, makePptx, makeXlsx } from '../server/parsing/testing';
import { initSearch } from '../server/search';
import { encryptCredentials } from '../server/sync/connections';
import { enqueueSync } from '../server/sync/jobs';
import { registerConnector } from '../server/sync/registry';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer } from '../server/testing/server';
import { benchConnectorRows, CONNECTOR_ROWS, INCREMENTAL_CHANGES } from './connector-rows';
import { NOTES_PAGE, sourceNotes } from './connectors/notes';

const FILES = Number(process.env.BENCH_UPLOADS ?? 200);
const args = process.argv.slice(2);
const documentsAt = args.indexOf('--documents');
const SOURCE_DOCUMENTS = documentsAt >= 0 ? Number(args[documentsAt + 1]) : 50_000;
if (!Number.isInteger(SOURCE_DOCUMENTS) || SOURCE_DOCUMENTS < 1)
  throw new Error('--documents wants a whole number of documents, at least 1');
const connectorItemsAt = args.indexOf('--connector-items');
const CONNECTOR_ITEMS = connectorItemsAt >= 0 ? Number(args[connectorItemsAt + 1]) : 20_000;
if (!Number.isInteger(CONNECTOR_ITEMS) || CONNECTOR_ITEMS < INCREMENTAL_CHANGES)
  throw new Error(`--connector-items wants a whole number of items, at least ${INCREMENTAL_CHANGES}`);
const connectorAt = args.indexOf('--connector');
const connectorApp = connectorAt >= 0 ? args[connectorAt + 1] : undefined;
if (connectorAt >= 0 && !CONNECTOR_ROWS.some((row) => row.connector.shortname === connectorApp))
  throw new Error(
    `--connector wants one of ${CONNECTOR_ROWS.map((row) => row.connector.shortname).join(', ')}`,
  );
const urlAt = args.indexOf('--database-url');
const databaseUrl = urlAt >= 0 ? args[urlAt + 1] : undefined;
const RSS_SAMPLE_MS = 100;
const WORDS = 'budget roadmap hiring launch review policy travel security onboarding quarterly'.split(' ');

function paragraph(seed: number, words: number): string {
  return Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');
}

/** File i of the mix: PDF, DOCX, XLSX, PPTX, CSV, HTML and text in turn, each a few pages of words. */
async function sample(i: number): Promise<[name: string, bytes: Uint8Array]> {
  const text = (n: number) => paragraph(i + n, 120);
  switch (i % 7) {
    case 0:
      return [`f${i}.pdf`, await makePdf([[text(0), text(1)], [text(2)]])];
    case 1:
      return [`f${i}.docx`, await makeDocx()];
    case 2:
      return [
        `f${i}.xlsx`,
        makeXlsx([{ name: 'S', rows: WORDS.map((word, r) => [word, r, text(r).slice(0, 80)]) }]),
      ];
    case 3:
      return [`f${i}.pptx`, makePptx([0, 1, 2].map((n) => ({ title: `Slide ${n}`, bullets: [text(n)] })))];
    case 4:
      return [
        `f${i}.csv`,
        new TextEncoder().encode(WORDS.map((word, r) => `${word},${r},${text(r)}`).join('\n')),
      ];
    case 5:
      return [`f${i}.html`, new TextEncoder().encode(`<h1>Page ${i}</h1><p>${text(0)}</p><p>${text(1)}</p>`)];
    default:
      return [`f${i}.txt`, new TextEncoder().encode(`${text(0)}\n\n${text(1)}\n\n${text(2)}`)];
  }
}

async function benchUploads(): Promise<void> {
  const server = await createTestServer();
  // As `scout serve` does at start: indexing pays for the search indexes it feeds.
  await initSearch(server.store);
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, { domain: 'bench-ingest.test' });
  const user = await createUser(server.store.db, org, { email: 'bench@bench-ingest.test' });
  const headers = { authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}` };
  const files = await Promise.all(Array.from({ length: FILES }, (_, i) => sample(i)));
  const bytes = files.reduce((total, [, content]) => total + content.length, 0);

  // Upload first with no worker running, so the two phases are timed apart.
  const uploadStarted = performance.now();
  for (let at = 0; at < files.length; at += UPLOAD_MAX_FILES) {
    const form = new FormData();
    for (const [name, content] of files.slice(at, at + UPLOAD_MAX_FILES)) {
      form.append('file', new Blob([new Uint8Array(content)]), name);
    }
    const response = await fetch(`${base}/api/v1/document_uploads`, { method: 'POST', body: form, headers });
    const answer = (await response.json()) as UploadResponse;
    if (!response.ok || answer.failed.length > 0) throw new Error(`upload failed: ${JSON.stringify(answer)}`);
  }
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;

  const indexStarted = performance.now();
  const worker = runWorker(server.store, createLogger('silent'), { idleMs: 10 });
  let chunks = 0;
  for (;;) {
    const response = await fetch(`${base}/api/v1/document_uploads`, { headers });
    const { documents } = (await response.json()) as UploadListResponse;
    if (documents.every((doc) => doc.total_chunks >= 0)) {
      chunks = documents.reduce((total, doc) => total + doc.total_chunks, 0);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  await worker.stop();
  await server.close();

  const perSecond = (count: number, seconds: number) => (count / seconds).toFixed(1);
  console.log(
    `ingest uploads (${FILES} files of 7 formats, ${(bytes / 1024 / 1024).toFixed(1)} MB, embedded store): ` +
      `upload + parse ${perSecond(FILES, uploadSeconds)} files/s; ` +
      `index ${perSecond(FILES, indexSeconds)} files/s, ${perSecond(chunks, indexSeconds)} chunks/s ` +
      `(${chunks} chunks); peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
}

const HEALTH_MB = Number(process.env.BENCH_HEALTH_MB ?? 200);
const HEALTH_POLL_MS = 20;

async function benchHugeUpload(): Promise<void> {
  const server = await createTestServer();
  await initSearch(server.store);
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, { domain: 'bench-huge.test' });
  const user = await createUser(server.store.db, org, { email: 'bench@bench-huge.test' });
  const headers = { authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}` };
  const page = Array.from({ length: 400 }, (_, i) => paragraph(i, 12)).join('.\n');
  const zip = zipSync({
    'huge.txt': strToU8(page.repeat(Math.ceil((HEALTH_MB * 1024 * 1024) / page.length))),
  });
  const worker = runWorker(server.store, createLogger('silent'), { idleMs: 10 });

  const latencies: number[] = [];
  let ingesting = true;
  const poll = (async () => {
    while (ingesting) {
      const started = performance.now();
      await fetch(`${base}/api/v1/health`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
    }
  })();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)]), 'huge.zip');
  const response = await fetch(`${base}/api/v1/document_uploads/zip`, {
    method: 'POST',
    body: form,
    headers,
  });
  const answer = (await response.json()) as UploadResponse;
  if (!response.ok) throw new Error(`upload failed: ${JSON.stringify(answer)}`);
  let chunks = -1;
  while (chunks === -1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const listed = await fetch(`${base}/api/v1/document_uploads`, { headers });
    chunks = ((await listed.json()) as UploadListResponse).documents[0]!.total_chunks;
  }
  const seconds = (performance.now() - started) / 1000;
  ingesting = false;
  await poll;
  delay.disable();
  await worker.stop();
  await server.close();

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  console.log(
    `ingest huge upload (${(zip.length / 1024).toFixed(0)} KB zip inflating to ${HEALTH_MB} MB of text, ` +
      `embedded store, worker in process): ${seconds.toFixed(1)} s to indexed (${chunks} chunks); /health ` +
      `p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${at(1).toFixed(0)} ms over ` +
      `${latencies.length} calls; longest event-loop pause ${(delay.max / 1e6).toFixed(0)} ms; ` +
      `load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function benchSource(store: Store, label: string): Promise<void> {
  await initSearch(store);
  const fake = await startNotesFake({ pageSize: NOTES_PAGE });
  try {
    for (const note of seedNotes()) fake.remove(note.id);
    let chars = 0;
    for (const note of sourceNotes(SOURCE_DOCUMENTS)) {
      fake.upsert(note);
      chars += note.body?.length ?? 0;
    }
    const org = await createOrg(store.db, { domain: `bench-source-${Date.now()}.test` });
    const owner = await createUser(store.db, org, { email: `admin@${org.domain}`, admin: true });
    const [connection] = await store.db
      .insert(appConnections)
      .values({
        orgId: org.id,
        userId: owner.id,
        appName: notesConnector.shortname,
        isOrg: true,
        statusCode: ConnectionStatus.Connecting,
        extra: { config: { baseUrl: fake.server.url } },
      })
      .returning();
    if (!connection) throw new Error('no connection');
    await store.db
      .update(appConnections)
      .set({ credentialsEncrypted: encryptCredentials(connection.id, { api_key: fake.token }) })
      .where(eq(appConnections.id, connection.id));

    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, RSS_SAMPLE_MS);
    const load = os.loadavg()[0]!;
    const started = performance.now();
    await enqueueSync(store.db, connection, 'full');
    const worker = runWorker(store, createLogger('silent'), { idleMs: 10 });
    try {
      for (;;) {
        const [row] = await store.db
          .select({ statusCode: appConnections.statusCode, statusMessage: appConnections.statusMessage })
          .from(appConnections)
          .where(eq(appConnections.id, connection.id));
        if (row?.statusCode === ConnectionStatus.IndexingComplete) break;
        if (
          row?.statusCode === ConnectionStatus.IndexingFailed ||
          row?.statusCode === ConnectionStatus.ErrorReconnect
        )
          throw new Error(`sync stopped: ${row.statusMessage}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await worker.stop();
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const loadAfter = os.loadavg()[0]!;

    const [docs] = await store.db
      .select({ n: count() })
      .from(documents)
      .where(eq(documents.connectionId, connection.id));
    const [chunks] = await store.db
      .select({ n: count() })
      .from(documentChunks)
      .innerJoin(documents, eq(documents.id, documentChunks.documentId))
      .where(eq(documents.connectionId, connection.id));
    if (docs?.n !== SOURCE_DOCUMENTS) throw new Error(`indexed ${docs?.n} of ${SOURCE_DOCUMENTS} documents`);
    const perSecond = (n: number) => (n / seconds).toFixed(1);
    console.log(
      `ingest source (${SOURCE_DOCUMENTS} notes, ${(chars / 1024 / 1024).toFixed(1)} MB of text, pages of ` +
        `${NOTES_PAGE}, ${label}): ${seconds.toFixed(1)} s; ${perSecond(docs.n)} documents/s, ` +
        `${perSecond(chunks?.n ?? 0)} chunks/s (${chunks?.n} chunks); RSS ${mb(rssBefore)} before the sync ` +
        `(fake source included), peak ${mb(peakRss)}; load average ${load.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    );
  } finally {
    await fake.close();
  }
}

const connectorRows = () =>
  benchConnectorRows({
    items: CONNECTOR_ITEMS,
    unpaced: args.includes('--unpaced'),
    ...(connectorApp ? { apps: [connectorApp] } : {}),
  });

export async function benchIngest(): Promise<void> {
  if (args.includes('--connectors-only')) return connectorRows();
  // `--health-only`: only /health during the huge upload (issue 11's target), a minute instead of many
  if (args.includes('--health-only')) return benchHugeUpload();
  await benchUploads();
  await benchHugeUpload();
  // The connection's credentials are sealed with the process's key, as the server's are with its data dir's.
  setDefaultSecretKey(generateSecretKey());
  registerConnector(notesConnector);
  const embedded = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  try {
    await benchSource(embedded, 'embedded PGlite (memory)');
  } finally {
    await embedded.close();
  }
  await connectorRows();
  if (databaseUrl) {
    const server = await openStore({ databaseUrl });
    try {
      await benchSource(
        server,
        `PostgreSQL server ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`,
      );
    } finally {
      await server.close();
    }
  }
}

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) await benchIngest();
