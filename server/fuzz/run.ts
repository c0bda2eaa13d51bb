// The fuzzer (`npm run fuzz`, and a short fixed-seed run in fuzz.test.ts): every API route of the real server, from
// the route table, and every chat socket message type, with payloads generated from their zod schemas, signed in as
// an admin and as a member. It holds the server to three rules: never a 500, never a hang, and a 4xx changes nothing.
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { clientMessageSchema } from '../../common/api/chat';
import { createApiKey } from '../auth/api-keys';
import { ChatTestClient } from '../chat/testing/chat-client';
import { listApiRoutes, type ApiRoute } from '../policies/access';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { seededRandom } from '../testing/random';
import { FUZZ_KINDS, generate, jsonSchemaOf, type FuzzKind } from './generate';

export type FuzzOptions = {
  seed: number;
  /** Requests per route and caller; each cycles through the kinds of payload. */
  iterations: number;
  /** A request slower than this is a hang. */
  timeoutMs?: number;
  /** Only routes whose `METHOD url` contains this. */
  only?: string;
  /** Told each route as it starts. */
  progress?: (line: string) => void;
};

export type FuzzFailure = { target: string; kind: FuzzKind; problem: string; payload: string };
export type FuzzReport = { requests: number; socketMessages: number; failures: FuzzFailure[] };

type Caller = { name: string; header: Record<string, string> };

/**
 * Count and content hash of every table: equal before and after a request means it wrote nothing. `last_used_at`
 * (of an API key) is written by every authenticated call, whatever its answer.
 */
async function storeChecksum(server: TestServer): Promise<string> {
  const db = server.store.db;
  const tables = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts = tables.rows.map(
    ({ name }) =>
      sql`select ${name}::text as name, count(*)::text as n,
            coalesce(md5(string_agg(r.row, ',' order by r.row)), '') as hash
          from (select (to_jsonb(t) - 'last_used_at')::text as row from ${sql.identifier(String(name))} t) r`,
  );
  const rows = await db.execute<{ name: string; n: string; hash: string }>(sql.join(parts, sql` union all `));
  return rows.rows.map((row) => `${row.name}:${row.n}:${row.hash}`).join('\n');
}

/** The checksum after the last request, when it was taken: the next request's "before", half the work. */
type ChecksumCache = { last: string | null };

/** A short description of a payload for the report: its shape, never megabytes of it. */
const sketch = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const asQuery = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(value && typeof value === 'object' && !Array.isArray(value) ? value : {}).map(
      ([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)],
    ),
  );

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const random = seededRandom(options.seed);
  const server = await createTestServer();
  const failures: FuzzFailure[] = [];
  let requests = 0;
  let socketMessages = 0;
  try {
    const { db } = server.store;
    const org = await createOrg(db, { domain: 'fuzz.test', plan: 'ENTERPRISE' });
    const admin = await createUser(db, org, { email: 'admin@fuzz.test', admin: true });
    const member = await createUser(db, org, { email: 'member@fuzz.test' });
    const apiKey = (await createApiKey(db, { orgId: org.id, name: 'fuzz' })).key;
    const bearer = async (user: typeof admin) => ({
      authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}`,
    });
    const install = await server.app.inject({
      method: 'PUT',
      url: '/api/v1/app/install/custom-api',
      headers: await bearer(admin),
      payload: { isOrg: true, options: { connection_name: 'Fuzz', connection_id: 'fuzz' } },
    });
    const connectionId = (install.json() as { connection?: { id: string } }).connection?.id;
    // Known ids make some requests reach past the "not found" of a random id.
    const knownIds: Record<string, string[]> = {
      connectionId: connectionId ? [connectionId] : [],
      userId: [admin.id, member.id],
      id: [admin.id, member.id],
    };

    const checksum: ChecksumCache = { last: null };
    const routes = listApiRoutes(server.app).filter(
      (route) => !options.only || `${route.method} ${route.url}`.includes(options.only),
    );
    for (const route of routes) {
      options.progress?.(`${route.method} ${route.url}`);
      const callers: Caller[] =
        route.access === 'apiKey'
          ? [{ name: 'apiKey', header: { authorization: `Bearer ${apiKey}` } }]
          : route.access === 'public'
            ? [{ name: 'anonymous', header: {} }]
            : [
                { name: 'admin', header: await bearer(admin) },
                { name: 'member', header: await bearer(member) },
              ];
      // Callers take turns: over 2 × 7 iterations each caller sends each kind of payload.
      for (let i = 0; i < options.iterations; i++) {
        const kind = FUZZ_KINDS[i % FUZZ_KINDS.length]!;
        const caller = callers[i % callers.length]!;
        requests++;
        const failure = await fuzzRoute(server, route, caller, kind, random, knownIds, timeoutMs, checksum);
        if (failure) failures.push(failure);
      }
    }
    socketMessages = await fuzzSocket(server, await bearer(admin), options, random, failures);
  } finally {
    await server.close();
  }
  return { requests, socketMessages, failures };
}

async function fuzzRoute(
  server: TestServer,
  route: ApiRoute,
  caller: Caller,
  kind: FuzzKind,
  random: () => number,
  knownIds: Record<string, string[]>,
  timeoutMs: number,
  checksum: ChecksumCache,
): Promise<FuzzFailure | null> {
  const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType; params?: z.ZodType };
  // One part is bent; the others stay valid, so the bent one is what the server has to refuse.
  const parts = (['body', 'querystring', 'params'] as const).filter((part) => schema[part]);
  const bent = parts.length > 0 ? parts[Math.floor(random() * parts.length)] : undefined;
  const payloadOf = (part: (typeof parts)[number]) =>
    generate(jsonSchemaOf(schema[part]!), part === bent ? kind : 'valid', random);
  const params = asQuery(schema.params ? payloadOf('params') : {});
  const url = route.url.replace(/:(\w+)\??/g, (_, name: string) => {
    const known = knownIds[name] ?? [];
    const value = bent !== 'params' && known.length > 0 && random() < 0.5 ? known[0]! : params[name];
    // A lone surrogate cannot be put in a URL at all.
    return encodeURIComponent((value ?? '0').replace(/[\ud800-\udfff]/g, '\ufffd'));
  });
  const query = schema.querystring ? asQuery(payloadOf('querystring')) : undefined;
  const payload = schema.body ? payloadOf('body') : undefined;
  const target = `${route.method} ${route.url} as ${caller.name}`;
  const before = checksum.last ?? (await storeChecksum(server));
  checksum.last = null;
  const response = await withTimeout(
    server.app.inject({
      method: route.method as 'GET',
      url: `${url}`,
      query,
      headers: caller.header,
      ...(payload === undefined ? {} : { payload: payload as object }),
    }),
    timeoutMs,
  );
  const describe = (problem: string): FuzzFailure => ({
    target,
    kind,
    problem,
    payload: sketch({ url, query, body: payload }),
  });
  if (response === 'timeout') return describe(`no answer within ${timeoutMs} ms`);
  // Other 5xx are deliberate answers (501 for an unconfigured sign-in method, 502 for a failing vendor).
  if (response.statusCode === 500) return describe(`500 ${response.body.slice(0, 200)}`);
  if (response.statusCode >= 400) {
    if (response.body.length > 2000) return describe(`a ${response.body.length}-byte error body`);
    const after = await storeChecksum(server);
    checksum.last = after;
    if (after !== before) {
      const changed = after.split('\n').filter((line) => !before.includes(line));
      return describe(
        `${response.statusCode} but ${changed.map((line) => line.split(':')[0]).join(', ')} changed`,
      );
    }
  }
  return null;
}

/** Every client message type, bent the same ways, on a signed-in socket: never an INTERNAL error, never a hang. */
async function fuzzSocket(
  server: TestServer,
  header: Record<string, string>,
  options: FuzzOptions,
  random: () => number,
  failures: FuzzFailure[],
): Promise<number> {
  if (options.only && !'socket'.includes(options.only)) return 0;
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const token = header.authorization!.replace(/^Bearer /, '');
  const variants = (jsonSchemaOf(clientMessageSchema) as { oneOf?: object[] }).oneOf ?? [];
  let client = await ChatTestClient.open(base, token);
  let closed = false;
  const watch = (socket: ChatTestClient) => void socket.closed.then(() => (closed = true));
  watch(client);
  let sent = 0;
  try {
    for (let i = 0; i < options.iterations; i++) {
      for (const variant of variants) {
        // A bad AUTH closes the socket (as the protocol says): the next message goes on a new one.
        if (closed) {
          closed = false;
          client = await ChatTestClient.open(base, token);
          watch(client);
        }
        const kind = FUZZ_KINDS[sent % FUZZ_KINDS.length]!;
        const message = generate(variant, kind, random);
        client.messages.length = 0;
        client.send(JSON.stringify(message));
        sent++;
        // Every message but a good AUTH or a QUERY still being answered gets a reply; give it a moment.
        for (let waited = 0; waited < 1500 && client.messages.length === 0 && !closed; waited += 25)
          await new Promise((resolve) => setTimeout(resolve, 25));
        for (const reply of client.messages) {
          if (reply.type === 'ERROR' && reply.code === 'INTERNAL')
            failures.push({ target: 'chat socket', kind, problem: reply.message, payload: sketch(message) });
        }
      }
    }
  } finally {
    await client.close();
  }
  return sent;
}
