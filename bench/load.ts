// `npm run bench:load [-- --members N --seconds S --chunks C --only embedded|postgres]`: simulated members against
// whole Scout servers. Each member signs in (token refresh), then loops with no think time: a search, an
// autosuggest, the topic list, and every fourth round a question over the chat socket, answered by a local
// OpenAI-compatible test model. Two set-ups: one instance over an embedded store on disk, and two instances (child
// processes) over one fresh database of the PostgreSQL server at TEST_DATABASE_URL (default 127.0.0.1:54330),
// members split between them. Prints throughput, p50/p95/p99 and errors per call, and each server's CPU, RSS and
// event-loop delay. Loopback only; stops after S seconds. Figures, never asserts.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { LoginTokens } from '../common/api/session';
import { startSession, type ClientInfo } from '../server/auth/sessions';
import { deriveTokenKey } from '../server/auth/tokens';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import { ChatTestClient } from '../server/chat/testing/chat-client';
import { loadConfig } from '../server/config';
import { generateSecretKey, parseSecretKey } from '../server/db/secrets';
import { openStore } from '../server/db/store';
import { startOpenAiServer, type RecordedRequest } from '../server/llm/testing/openai-server';
import { createLogger } from '../server/logger';
import { initSearch, upsertDocuments, type IndexDocument } from '../server/search';
import { seededRandom } from '../server/testing/random';
import { startServer } from '../server/serve';
import { createOrg } from '../server/testing/fixtures';
import { documentsFrom, evalQueries, seedMembers } from './search';
import { ms, summarise } from './stats';
import { envWithoutModels } from './child-env';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const MEMBERS = option('members', 50);
const SECONDS = option('seconds', 30);
const TARGET_CHUNKS = option('chunks', 20_000);
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const ASK_EVERY = 4;
const GROUPS = 40;
const BATCH = 250;

type ServeRole = { seed: boolean; dataDir?: string; databaseUrl?: string; secretKey: string };
type Ready = { url: string; refreshTokens: string[]; chunks: number; seconds: number };
type ServerStats = { cpuPercent: number; rssMb: number; loopP50: number; loopP99: number; loopMax: number };

/** A child: one Scout server (the real start path), seeding the store first when it is the first instance. */
async function serve(role: ServeRole): Promise<void> {
  const logger = createLogger('silent');
  const started = performance.now();
  const store = await openStore({ databaseUrl: role.databaseUrl ?? null, dataDir: role.dataDir, logger });
  const refreshTokens: string[] = [];
  let chunks = 0;
  if (role.seed) {
    const random = seededRandom(5);
    await initSearch(store);
    const org = await createOrg(store.db, { domain: 'load.test' });
    const { members, principals } = await seedMembers(store, random, org.id, 'load.test', MEMBERS, GROUPS);
    const chunkCount = async () =>
      Number(
        (
          await store.db.execute(
            sql`SELECT count(*)::int AS n FROM document_chunks WHERE org_id = ${org.id}::uuid`,
          )
        ).rows[0]?.n ?? 0,
      );
    let batch: IndexDocument[] = [];
    for (const doc of documentsFrom(random, principals)) {
      batch.push(doc);
      if (batch.length < BATCH) continue;
      await upsertDocuments(store.db, org.id, batch);
      batch = [];
      if ((chunks = await chunkCount()) >= TARGET_CHUNKS) break;
    }
    await store.db.execute(sql`ANALYZE`);
    const tokenKey = deriveTokenKey(parseSecretKey(role.secretKey));
    const client: ClientInfo = { ip: '127.0.0.1', userAgent: 'bench:load' };
    for (const member of members) {
      const tokens: LoginTokens = await startSession({ store, tokenKey }, member, client);
      refreshTokens.push(tokens.refresh_token);
    }
  }
  const config = {
    ...loadConfig({ SCOUT_SECRET_KEY: role.secretKey, LOG_LEVEL: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: role.databaseUrl,
    dataDir: role.dataDir ?? 'memory://',
  };
  const server = await startServer(config, { logger, logLevel: 'silent', store });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let cpu = process.cpuUsage();
  let since = performance.now();
  process.on('message', (message: string) => {
    if (message === 'reset') {
      loop.reset();
      loop.enable();
      cpu = process.cpuUsage();
      since = performance.now();
      return;
    }
    const used = process.cpuUsage(cpu);
    process.send!({
      cpuPercent: ((used.user + used.system) / 1000 / (performance.now() - since)) * 100,
      rssMb: process.memoryUsage().rss / 2 ** 20,
      loopP50: loop.percentile(50) / 1e6,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
    } satisfies ServerStats);
  });
  process.send!({
    url: server.url,
    refreshTokens,
    chunks,
    seconds: (performance.now() - started) / 1000,
  } satisfies Ready);
  await once(process, 'disconnect');
  await server.close();
}

function spawnServer(
  role: ServeRole,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; ready: Promise<Ready> } {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(role), ...args], { env });
  return { child, ready: once(child, 'message').then(([message]) => message as Ready) };
}

async function serverStats(child: ChildProcess): Promise<ServerStats> {
  const reply = once(child, 'message');
  child.send('stats');
  return (await reply)[0] as ServerStats;
}

type Calls = Map<string, { samples: number[]; errors: Map<string, number> }>;

async function timed<T>(calls: Calls, name: string, run: () => Promise<T>): Promise<T | null> {
  let call = calls.get(name);
  if (!call) calls.set(name, (call = { samples: [], errors: new Map() }));
  const t0 = performance.now();
  try {
    const result = await run();
    call.samples.push(performance.now() - t0);
    return result;
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 60) : String(error);
    call.errors.set(reason, (call.errors.get(reason) ?? 0) + 1);
    return null;
  }
}

async function api(base: string, method: string, route: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function member(base: string, refreshToken: string, index: number, until: number, calls: Calls) {
  const random = seededRandom(100 + index);
  const queries = evalQueries();
  const signedIn = await timed(calls, 'sign in (token-refresh)', () =>
    api(base, 'POST', '/auth/token-refresh', null, { refresh_token: refreshToken }),
  );
  const token = signedIn?.id_token as string | undefined;
  if (!token) return;
  for (let round = 0; performance.now() < until; round++) {
    const query = queries[Math.floor(random() * queries.length)]!;
    await timed(calls, '_search', () => api(base, 'POST', '/_search', token, { q: query }));
    await timed(calls, '_autosuggest', () =>
      api(base, 'POST', '/_autosuggest', token, { q: query.split(' ')[0]!.slice(0, 4) }),
    );
    await timed(calls, 'GET topics', () => api(base, 'GET', '/topics?page=1', token));
    if (round % ASK_EVERY !== 0) continue;
    await timed(calls, 'ask (QUERY → ANSWER_SAVED)', async () => {
      const client = await ChatTestClient.open(base, token);
      try {
        client.send({ type: 'QUERY', query: query.slice(0, 200), isNewTopic: true });
        const saved = await Promise.race([
          client.next('ANSWER_SAVED', () => true, 60_000),
          client
            .next('ERROR', () => true, 60_000)
            .then((error) => {
              throw new Error(`ERROR ${error.code}`);
            }),
        ]);
        if (saved.status !== 'SUCCESS') throw new Error(`answer ${saved.status}`);
      } finally {
        await client.close();
      }
    });
  }
}

async function drive(label: string, children: ChildProcess[], bases: string[], refreshTokens: string[]) {
  const calls: Calls = new Map();
  for (const child of children) child.send('reset');
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    refreshTokens.map((token, i) => member(bases[i % bases.length]!, token, i, until, calls)),
  );
  const seconds = (performance.now() - started) / 1000;
  const stats = await Promise.all(children.map(serverStats));
  console.log(`\n${label}: ${refreshTokens.length} members for ${seconds.toFixed(1)} s`);
  for (const [name, call] of calls) {
    const s = summarise(call.samples);
    const errors = [...call.errors].map(([reason, n]) => `${n}× ${reason}`).join(', ');
    console.log(
      `  ${name.padEnd(28)} ${(call.samples.length / seconds).toFixed(1).padStart(6)}/s  ` +
        `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  errors ${errors || 0}`,
    );
  }
  stats.forEach((stat, i) =>
    console.log(
      `  server ${i + 1}: CPU ${stat.cpuPercent.toFixed(0)}% of a core, RSS ${stat.rssMb.toFixed(0)} MB, ` +
        `event-loop delay p50 ${ms(stat.loopP50)} p99 ${ms(stat.loopP99)} max ${ms(stat.loopMax)}`,
    ),
  );
}

async function run(): Promise<void> {
  const model = await startOpenAiServer({
    respond: (request: RecordedRequest) =>
      request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT
        ? { text: 'TITLE: Load\nRELATED:\n- more' }
        : { text: 'Scout answers at once [1].' },
  });
  const inherited = envWithoutModels();
  const env = { ...inherited, OPENAI_COMPATIBLE_BASE_URL: model.url };
  const secretKey = generateSecretKey().toString('hex');
  try {
    if (ONLY !== 'postgres') {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'scout-load-'));
      const one = spawnServer({ seed: true, dataDir, secretKey }, env);
      try {
        const ready = await one.ready;
        console.log(
          `embedded: ${ready.chunks.toLocaleString('en')} chunks seeded in ${ready.seconds.toFixed(0)} s`,
        );
        await drive('one instance, embedded PGlite on disk', [one.child], [ready.url], ready.refreshTokens);
      } finally {
        one.child.disconnect();
        await once(one.child, 'exit');
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    if (ONLY !== 'embedded') await runOnPostgres(env, secretKey);
  } finally {
    await model.close();
  }
}

async function runOnPostgres(env: NodeJS.ProcessEnv, secretKey: string): Promise<void> {
  const adminUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54330/postgres');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname)) {
    throw new Error(`bench:load runs on loopback only, not on ${adminUrl.hostname}`);
  }
  const name = `scout_load_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const children: ChildProcess[] = [];
  try {
    const first = spawnServer({ seed: true, databaseUrl, secretKey }, env);
    children.push(first.child);
    const ready = await first.ready;
    console.log(
      `PostgreSQL: ${ready.chunks.toLocaleString('en')} chunks seeded in ${ready.seconds.toFixed(0)} s`,
    );
    const second = spawnServer({ seed: false, databaseUrl, secretKey }, env);
    children.push(second.child);
    const other = await second.ready;
    await drive(
      `two instances, one PostgreSQL server (${adminUrl.host})`,
      children,
      [ready.url, other.url],
      ready.refreshTokens,
    );
  } finally {
    for (const child of children) {
      child.disconnect();
      await once(child, 'exit');
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

if (args[0] === '--serve') await serve(JSON.parse(args[1]!) as ServeRole);
else await run();
