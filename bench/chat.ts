// `npm run bench:chat [-- --chunks N] [-- --browser]`: the answer pipeline's own cost. A child process runs the server over an
// embedded store holding 100k chunks of real text (the corpus builder of bench/search.ts, ACLs for 500 users and
// 200 groups); this process plays the clients over real sockets and the model (an OpenAI-compatible streaming
// server on 127.0.0.1), so the server's process does nothing but serve. Prints:
//  1. QUERY → first CHUNK over 200 questions, with a model that answers at once: retrieval, prompt and bookkeeping.
//  2. Concurrent streaming sockets: N answers streaming at once (a chunk every 50 ms each), the delay from the model
//     sending a chunk to the client receiving it; N doubles until its p95 passes 100 ms.
//  3. Enter → first answer word painted in Chromium, no model (bench/chat-browser.ts), split into its steps; needs
//     the built web app (`npm run build`). `--browser` runs only this one.
// Figures, never asserts.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { ServerMessage } from '../common/api/chat';
import type { LoginTokens } from '../common/api/session';
import { ChatTestClient } from '../server/chat/testing/chat-client';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import { MEMORY_DATA_DIR, openStore } from '../server/db/store';
import {
  startOpenAiServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../server/llm/testing/openai-server';
import { initSearch, upsertDocuments, type IndexDocument } from '../server/search';
import { seededRandom } from '../server/testing/random';
import { createOrg, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer } from '../server/testing/server';
import { documentsFrom, evalQueries, seedMembers } from './search';
import { ms, summarise } from './stats';
import { envWithoutModels } from './child-env';
import { browserFirstWord, observeChatFrames, type ServerStamps } from './chat-browser';

const args = process.argv.slice(2);
const chunksAt = args.indexOf('--chunks');
const TARGET_CHUNKS = chunksAt >= 0 ? Number(args[chunksAt + 1]) : 100_000;
const USERS = 500;
const GROUPS = 200;
const BATCH = 250;
const QUESTIONS = 200;
const WARM_UP = 20;
const CHUNK_EVERY_MS = 50;
/** How long every socket of a level streams at once while chunk delays are recorded. */
const MEASURE_MS = 5_000;
const DELAY_BUDGET_MS = 100;
const MAX_SOCKETS = 3200;
const BROWSER_QUESTIONS = 30;
const BROWSER_WARM_UP = 3;
const BROWSER_ONLY = args.includes('--browser');

type Ready = {
  url: string;
  tokens: string[];
  /** The member the browser signs in as. */
  browserTokens: LoginTokens;
  chunks: number;
  docs: number;
  seconds: number;
  engine: string;
};
/** From the parent: the browser section starts; answer without a model, and stamp the chat sockets' frames. */
const BROWSER_SECTION = 'browser-section';

/** The child: the server over a 100k-chunk index, reporting its address and members' tokens when ready. */
async function serve(): Promise<void> {
  const random = seededRandom(7);
  const store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  const { engine } = await initSearch(store);
  // stage times are read from the debug logs, which only admins of an org with the debugLogs flag get
  const org = await createOrg(store.db, { domain: 'chat-bench.test', flags: { debugLogs: true } });
  const { members, principals } = await seedMembers(store, random, org.id, 'chat-bench.test', USERS, GROUPS);
  await store.db.execute(sql`UPDATE users SET admin = true WHERE org_id = ${org.id}::uuid`);
  const started = performance.now();
  const chunkCount = async () =>
    Number(
      (
        await store.db.execute(
          sql`SELECT count(*)::int AS n FROM document_chunks WHERE org_id = ${org.id}::uuid`,
        )
      ).rows[0]?.n ?? 0,
    );
  let chunks = 0;
  let docs = 0;
  let batch: IndexDocument[] = [];
  for (const doc of documentsFrom(random, principals)) {
    batch.push(doc);
    if (batch.length < BATCH) continue;
    await upsertDocuments(store.db, org.id, batch);
    docs += batch.length;
    batch = [];
    if (docs % (BATCH * 8) === 0) chunks = await chunkCount();
    if (chunks >= TARGET_CHUNKS) break;
  }
  chunks = await chunkCount();
  const seconds = (performance.now() - started) / 1000;
  await store.db.execute(sql`ANALYZE`);
  const server = await createTestServer({ store });
  process.on('message', (message) => {
    if (message !== BROWSER_SECTION) return;
    // the chat reads the model's settings at each question
    process.env.OPENAI_COMPATIBLE_BASE_URL = '';
    observeChatFrames(server.app, (stamps) => process.send!({ stamps }));
  });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const tokens: string[] = [];
  for (const member of members) tokens.push((await loginTokensFor(server.ctx, member)).id_token);
  const browserTokens = await loginTokensFor(server.ctx, members[0]!);
  process.send!({ url, tokens, browserTokens, chunks, docs, seconds, engine } satisfies Ready);
  await once(process, 'disconnect');
  await server.close();
}

/** The epoch time in ms with sub-ms precision: the same clock for the model server and the clients. */
const now = () => performance.timeOrigin + performance.now();

async function measure(): Promise<void> {
  let reply: () => ScriptedReply = () => ({ text: 'Scout answers at once.' });
  const model = await startOpenAiServer({
    respond: (request: RecordedRequest) =>
      request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT
        ? { text: 'TITLE: Benchmark\nRELATED:\n- more' }
        : reply(),
  });
  const env = envWithoutModels();
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', ...args], {
    env: { ...env, OPENAI_COMPATIBLE_BASE_URL: model.url },
  });
  try {
    console.log(`building the index (${TARGET_CHUNKS.toLocaleString('en')} chunks) in the server process…`);
    const [ready] = (await once(child, 'message')) as [Ready];
    console.log(
      `index: ${ready.docs.toLocaleString('en')} documents, ${ready.chunks.toLocaleString('en')} chunks ` +
        `(${ready.engine}) in ${ready.seconds.toFixed(0)} s`,
    );
    if (!BROWSER_ONLY) {
      await firstChunkOverhead(ready);
      reply = () => ({ text: '', delayMs: CHUNK_EVERY_MS, live: liveChunk });
      await concurrentStreams(ready);
    }
    child.send(BROWSER_SECTION);
    await browserFirstWord({
      url: ready.url,
      tokens: ready.browserTokens,
      queries: evalQueries(),
      questions: BROWSER_QUESTIONS,
      warmUp: BROWSER_WARM_UP,
      nextStamps: stampsFrom(child),
    });
  } catch (error) {
    // said before the server's process is waited for
    console.error(error);
    process.exitCode = 1;
  } finally {
    child.disconnect();
    await once(child, 'exit');
    await model.close();
  }
}

/** The server's stamps of each question, in the order they come, to one waiter at a time. */
function stampsFrom(child: ChildProcess): () => Promise<ServerStamps> {
  const arrived: ServerStamps[] = [];
  let waiting: ((stamps: ServerStamps) => void) | null = null;
  child.on('message', (message: { stamps?: ServerStamps }) => {
    if (!message.stamps) return;
    if (waiting) {
      waiting(message.stamps);
      waiting = null;
    } else arrived.push(message.stamps);
  });
  return () => {
    const next = arrived.shift();
    return next ? Promise.resolve(next) : new Promise((resolve) => (waiting = resolve));
  };
}

let streaming = true;
/** A chunk stamped with the time it leaves the model; the answer goes on while `streaming`. */
const liveChunk = (index: number) => (index < 10 || streaming ? `~${now().toFixed(3)} ` : null);

async function ask(url: string, token: string, query: string) {
  const client = await ChatTestClient.open(url, token);
  const sent = performance.now();
  client.send({ type: 'QUERY', query, isNewTopic: true });
  await client.next('CHUNK', () => true, 120_000);
  const firstChunk = performance.now() - sent;
  const saved = await client.next('ANSWER_SAVED', () => true, 120_000);
  const stages = client.all('DEBUG_LOGS')[0]?.debugLogs.stages ?? [];
  const at = (stage: string) => stages.find((entry) => entry.stage === stage)?.at_ms ?? Number.NaN;
  await client.close();
  return {
    firstChunk,
    status: saved.status,
    retrieval: at('BUILDING_PROMPT') - at('GATHERING_DATA'),
    prompt: at('STREAMING_ANSWER') - at('BUILDING_PROMPT'),
  };
}

async function firstChunkOverhead(ready: Ready): Promise<void> {
  const random = seededRandom(11);
  const queries = evalQueries();
  const pickToken = () => ready.tokens[Math.floor(random() * ready.tokens.length)]!;
  for (let i = 0; i < WARM_UP; i++) await ask(ready.url, pickToken(), queries[i % queries.length]!);
  const totals: number[] = [];
  const retrieval: number[] = [];
  const prompt: number[] = [];
  let failed = 0;
  for (let i = 0; i < QUESTIONS; i++) {
    const result = await ask(ready.url, pickToken(), queries[(i + WARM_UP) % queries.length]!);
    if (result.status !== 'SUCCESS') failed++;
    totals.push(result.firstChunk);
    retrieval.push(result.retrieval);
    prompt.push(result.prompt);
  }
  const line = (name: string, samples: number[]) => {
    const s = summarise(samples);
    console.log(`  ${name}: p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}`);
  };
  console.log(`QUERY → first CHUNK, ${QUESTIONS} questions one at a time, model answering at once:`);
  line('total', totals);
  line('retrieval (GATHERING_DATA)', retrieval);
  line('prompt and history (BUILDING_PROMPT)', prompt);
  if (failed) console.log(`  ${failed} answers did not succeed`);
}

/** N sockets streaming at once: each chunk's delay from the model to the client. */
async function streamAtOnce(ready: Ready, sockets: number) {
  streaming = true;
  const clients = await Promise.all(
    Array.from({ length: sockets }, (_, i) =>
      ChatTestClient.open(ready.url, ready.tokens[i % ready.tokens.length]),
    ),
  );
  const delays: number[] = [];
  let measuring = false;
  let firstChunks = 0;
  const everyoneStreaming = new Promise<void>((resolve) => {
    for (const client of clients) {
      let first = true;
      client.socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as ServerMessage;
        if (message.type !== 'CHUNK') return;
        if (first) {
          first = false;
          if (++firstChunks === sockets) resolve();
        }
        if (!measuring) return;
        const received = now();
        for (const stamp of message.text.matchAll(/~(\d+\.\d+)/g)) delays.push(received - Number(stamp[1]));
      });
    }
  });
  const started = performance.now();
  for (const client of clients)
    client.send({ type: 'QUERY', query: 'thermal conductivity of gases', isNewTopic: true });
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 300_000).unref());
  const outcome = await Promise.race([everyoneStreaming.then(() => 'ok' as const), timeout]);
  const rampSeconds = (performance.now() - started) / 1000;
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
  measuring = false;
  streaming = false;
  const saved = await Promise.all(
    clients.map((client) =>
      client
        .next('ANSWER_SAVED', () => true, 120_000)
        .then(
          (message) => message.status,
          () => 'NONE',
        ),
    ),
  );
  await Promise.all(clients.map((client) => client.close()));
  return {
    outcome,
    rampSeconds,
    delays: summarise(delays),
    chunks: delays.length,
    failed: saved.filter((status) => status !== 'SUCCESS').length,
  };
}

async function concurrentStreams(ready: Ready): Promise<void> {
  console.log(
    `concurrent streaming sockets (a chunk every ${CHUNK_EVERY_MS} ms each, delays over ${MEASURE_MS / 1000} s ` +
      'once all stream):',
  );
  let held = 0;
  for (let sockets = 25; sockets <= MAX_SOCKETS; sockets *= 2) {
    const result = await streamAtOnce(ready, sockets);
    const d = result.delays;
    console.log(
      `  ${String(sockets).padStart(4)} sockets: chunk delay p50 ${ms(d.p50)}  p95 ${ms(d.p95)}  p99 ${ms(d.p99)}` +
        `  (${result.chunks.toLocaleString('en')} chunks; all streaming after ${result.rampSeconds.toFixed(1)} s` +
        `${result.outcome === 'timeout' ? ', NOT ALL STARTED' : ''}; ${result.failed} not saved as SUCCESS)`,
    );
    if (result.outcome === 'timeout' || result.failed > 0 || !(d.p95 < DELAY_BUDGET_MS)) break;
    held = sockets;
  }
  console.log(`  held with p95 chunk delay under ${DELAY_BUDGET_MS} ms: ${held} sockets`);
}

if (args.includes('--serve')) await serve();
else await measure();
