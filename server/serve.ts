import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { deriveTokenKey } from './auth/tokens';
import type { Config } from './config';
import type { ServerContext } from './context';
import { loadSecretKey, parseSecretKey, setDefaultSecretKey } from './db/secrets';
import { openStore, type Store } from './db/store';
import { seedDemoOnFirstStart } from './demo/seed';
import { createMailer } from './email/mailer';
import type { Logger } from './logger';
import { initSearch, searchScaleWarning } from './search';
import { VERSION } from './version';

export type RunningServer = { app: FastifyInstance; store: Store; url: string; close(): Promise<void> };

/** Opens the store (migrating it), builds the HTTP server and listens. Used by `scout serve` and the e2e harness. */
export async function startServer(
  config: Config,
  options: { logger: Logger; spaDir?: string; logLevel?: string; store?: Store },
): Promise<RunningServer> {
  const store =
    options.store ??
    (await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger: options.logger }));
  // the bm25 index is built before the first query rather than while it waits
  const search = await initSearch(store);
  options.logger.info(search, 'search ready');
  const scaleWarning = searchScaleWarning(search);
  if (scaleWarning) options.logger.warn({ engine: search.engine }, `search: ${scaleWarning}`);
  await seedDemoOnFirstStart(store, options.logger);
  const masterKey = config.secretKey ? parseSecretKey(config.secretKey) : loadSecretKey(config.dataDir);
  setDefaultSecretKey(masterKey);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger: options.logger });
  const ctx: ServerContext = { store, config, version: VERSION, tokenKey: deriveTokenKey(masterKey), mailer };
  const app = await buildApp({ ctx, spaDir: options.spaDir, logLevel: options.logLevel });
  const url = await app.listen({ port: config.port, host: config.host });
  let closing: Promise<void> | null = null;
  return {
    app,
    store,
    url,
    close() {
      // Requests in flight finish before the store closes under them.
      closing ??= app.close().then(() => store.close());
      return closing;
    },
  };
}
