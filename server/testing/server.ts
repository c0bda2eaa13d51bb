import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { deriveTokenKey } from '../auth/tokens';
import { loadConfig } from '../config';
import type { ServerContext } from '../context';
import { generateSecretKey } from '../db/secrets';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { createMailer } from '../email/mailer';
import { createLogger } from '../logger';
import { createNotifier } from '../notifications/notifier';
import { VERSION } from '../version';

export type TestServer = { app: FastifyInstance; ctx: ServerContext; store: Store; close(): Promise<void> };

/**
 * The real server on a fresh in-memory store, for `app.inject` or `listen` in tests. `env` is the environment the
 * config is read from (SMTP_URL pointing at a test SMTP server, say).
 */
export async function createTestServer(
  options: { spaDir?: string; store?: Store; env?: NodeJS.ProcessEnv } = {},
): Promise<TestServer> {
  const store = options.store ?? (await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR }));
  const config = { ...loadConfig(options.env ?? {}), dataDir: MEMORY_DATA_DIR, port: 0, host: '127.0.0.1' };
  const logger = createLogger('silent');
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger });
  const ctx: ServerContext = {
    store,
    config,
    version: VERSION,
    tokenKey: deriveTokenKey(generateSecretKey()),
    mailer,
    notifier: createNotifier({ db: store.db, mailer, publicUrl: config.publicUrl, log: logger }),
  };
  const app = await buildApp({ ctx, spaDir: options.spaDir, logLevel: 'silent' });
  return {
    app,
    ctx,
    store,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** A JSON call to the API of a listening test server at `base` (what `listen` answered), as a client makes it. */
export async function callApi(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> & { code?: string } }> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { code?: string } };
}

export type ApiCall = (
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
) => ReturnType<typeof callApi>;

/** A test server listening on 127.0.0.1, and `call` bound to its address (route tests over real HTTP). */
export async function listenTestServer(): Promise<{ server: TestServer; call: ApiCall }> {
  const server = await createTestServer();
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { server, call: (method, path, token, body) => callApi(base, method, path, token, body) };
}
