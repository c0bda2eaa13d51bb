import { Command } from 'commander';
import { loadConfig } from './config';
import { openStore } from './db/store';
import { createLogger } from './logger';
import { registerJobCommands } from './jobs/cli';
import { registerFlagCommands, registerOrgCommands } from './orgs/cli';
import { registerSearchCommands } from './search/cli';
import { VERSION } from './version';

// The server and the job worker load only for the commands that run them: every other command (orgs, jobs,
// search, migrate) would otherwise pay for importing the whole server — seconds of CPU per invocation.
const program = new Command()
  .name('scout')
  .description('Scout: workplace search and AI answers over your company apps.')
  .version(VERSION);

program
  .command('serve')
  .description(
    'serve the API, the chat sockets and the web app (and run background jobs in the same process)',
  )
  .option('-p, --port <port>', 'port to listen on (default: $PORT or 3000)')
  .option('--no-worker', 'do not run background jobs in this process')
  .action(async (options: { port?: string; worker: boolean }) => {
    const [{ startServer }, { startBackgroundWork }] = await Promise.all([
      import('./serve'),
      import('./background'),
    ]);
    const config = loadConfig({ ...process.env, ...(options.port ? { PORT: options.port } : {}) });
    const logger = createLogger(config.logLevel);
    const server = await startServer(config, { logger });
    const worker = options.worker ? startBackgroundWork(server.store, logger, config.workerLanes) : null;
    logger[server.listening.level]({ url: server.url, store: server.store.kind }, server.listening.message);
    onShutdown(logger, async () => {
      await worker?.stop();
      await server.close();
    });
  });

program
  .command('worker')
  .description('run background jobs (connector syncs, indexing, scheduled work) apart from the API')
  .action(async () => {
    const [{ startCrashRecovery }, { startBackgroundWork }] = await Promise.all([
      import('./serve'),
      import('./background'),
    ]);
    const config = loadConfig();
    const logger = createLogger(config.logLevel);
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
    const recovery = await startCrashRecovery(store, logger);
    const worker = startBackgroundWork(store, logger, config.workerLanes);
    logger.info({ store: store.kind }, 'worker started');
    onShutdown(logger, async () => {
      await worker.stop();
      await recovery.stop();
      await store.close();
    });
  });

program
  .command('migrate')
  .description('apply pending database migrations, then exit')
  .action(async () => {
    const config = loadConfig();
    const logger = createLogger(config.logLevel);
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
    await store.close();
    logger.info({ store: store.kind }, 'migrations applied');
  });

registerOrgCommands(program);
registerFlagCommands(program);
registerJobCommands(program);
registerSearchCommands(program);

/** SIGTERM and SIGINT stop taking work, let what is in flight finish, close the store, then exit. */
function onShutdown(logger: ReturnType<typeof createLogger>, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
