import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { deriveTokenKey } from './auth/tokens';
import { failOrphanAnswers } from './chat/generations';
import { DEFAULT_CHAT_SETTINGS } from './chat/settings';
import type { Config } from './config';
import type { ServerContext } from './context';
import { loadSecretKey, parseSecretKey, setDefaultSecretKey } from './db/secrets';
import { openStore, type Store } from './db/store';
import { seedDemoOnFirstStart } from './demo/seed';
import { startFakeVendors } from './dev/fake-vendors';
import { createMailer } from './email/mailer';
import { PROCESS_HEARTBEAT_MS, beatHeartbeat, endHeartbeat, releaseDeadLeases } from './jobs/processes';
import type { Logger } from './logger';
import { createNotifier } from './notifications/notifier';
import { initSearch, searchScaleWarning } from './search';
import { VERSION } from './version';

export type RunningServer = {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** The start-up line: where Scout listens, at warn level when other machines can reach it. */
  listening: ListeningNotice;
  close(): Promise<void>;
};

/** Opens the store (migrating it), builds the HTTP server and listens. Used by `scout serve` and the e2e harness. */
export async function startServer(
  config: Config,
  options: { logger: Logger; spaDir?: string; logLevel?: string; store?: Store },
): Promise<RunningServer> {
  const store =
    options.store ??
    (await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger: options.logger }));
  const recovery = await startCrashRecovery(store, options.logger);
  // the bm25 index is built before the first query rather than while it waits
  const search = await initSearch(store);
  options.logger.info(search, 'search ready');
  const scaleWarning = searchScaleWarning(search);
  if (scaleWarning) options.logger.warn({ engine: search.engine }, `search: ${scaleWarning}`);
  await seedDemoOnFirstStart(store, options.logger);
  const fakeVendors = config.fakeVendors ? await startFakeVendors(options.logger) : null;
  const masterKey = config.secretKey ? parseSecretKey(config.secretKey) : loadSecretKey(config.dataDir);
  setDefaultSecretKey(masterKey);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger: options.logger });
  const notifier = createNotifier({ db: store.db, mailer, publicUrl: config.publicUrl, log: options.logger });
  const ctx: ServerContext = {
    store,
    config,
    version: VERSION,
    tokenKey: deriveTokenKey(masterKey),
    mailer,
    notifier,
  };
  const app = await buildApp({ ctx, spaDir: options.spaDir, logLevel: options.logLevel });
  const url = await app.listen({ port: config.port, host: config.host });
  let closing: Promise<void> | null = null;
  return {
    app,
    store,
    url,
    listening: listeningNotice(app.server.address() as AddressInfo),
    close() {
      // Requests in flight finish before the store closes under them.
      closing ??= app
        .close()
        .then(() => recovery.stop())
        .then(() => fakeVendors?.close())
        .then(() => store.close());
      return closing;
    },
  };
}

export type ListeningNotice = { level: 'info' | 'warn'; message: string };

export function listeningNotice(address: AddressInfo): ListeningNotice {
  const { address: host, port } = address;
  if (host === '0.0.0.0' || host === '::') {
    return {
      level: 'warn',
      message:
        `Scout is ready on port ${port} of every network interface (${host}): it is reachable from other ` +
        `machines; set HOST=127.0.0.1 to keep it local`,
    };
  }
  return {
    level: 'info',
    message: `Scout is ready at http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  };
}

export type CrashRecovery = { stop(): Promise<void> };

/**
 * Beats this process's heartbeat and, at start and with every beat, hands back the job leases of processes that
 * died and fails their answers left PENDING, so a crash costs neither a five-minute wait for the sync nor an
 * answer spinning until someone reconnects. Stop it before closing the store.
 */
export async function startCrashRecovery(
  store: Store,
  logger: Logger,
  options: { everyMs?: number } = {},
): Promise<CrashRecovery> {
  const sweep = async (starting: boolean) => {
    const now = new Date();
    // one process holds an embedded store at a time: whatever is running or PENDING in it at start is a previous
    // incarnation's; on a server an answer is orphaned once its row's keepalive has stopped
    const exclusive = starting && store.kind === 'embedded';
    await beatHeartbeat(store.db, now);
    const released = await releaseDeadLeases(store.db, { now, exclusive });
    const failed = await failOrphanAnswers(
      store.db,
      exclusive ? now : new Date(now.getTime() - DEFAULT_CHAT_SETTINGS.staleAfterMs),
    );
    if (released > 0 || failed > 0) {
      logger.warn({ released, failed }, 'released the jobs and failed the answers of processes that died');
    }
  };
  await sweep(true);
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweep(false).catch((err: unknown) => logger.error({ err }, 'crash recovery sweep failed'));
  }, options.everyMs ?? PROCESS_HEARTBEAT_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await endHeartbeat(store.db);
    },
  };
}
