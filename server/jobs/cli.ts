import type { Command } from 'commander';
import { ConnectionStatus } from '../../common/connection-status';
import { loadConfig } from '../config';
import { openStore, type Store } from '../db/store';
import { connectionSyncStates, type ConnectionSyncState } from '../sync/connections';
import { listJobs, retryJob, type JobListing, type RetryResult } from './inspect';

const statusNames = new Map<number, string>(
  Object.entries(ConnectionStatus).map(([name, code]) => [code, name]),
);

const iso = (date: Date | null) => date?.toISOString() ?? 'never';

function jobLine(job: JobListing): string {
  const { mode, connectionId } = job.payload as { mode?: unknown; connectionId?: unknown };
  const subject = [mode, connectionId].filter((part) => typeof part === 'string').join(' ');
  const holder = job.status === 'running' && job.lockedBy ? ` by ${job.lockedBy}` : '';
  const error = job.lastError ? `  error: ${job.lastError.split('\n')[0]}` : '';
  return (
    `${job.id}  ${job.status}${holder}  ${job.lane}  ${job.kind}${subject ? ` ${subject}` : ''}  ` +
    `attempts ${job.attempts}/${job.maxAttempts}  due ${iso(job.runAt)}${error}`
  );
}

function connectionLine(connection: ConnectionSyncState): string {
  const status = statusNames.get(connection.statusCode) ?? String(connection.statusCode);
  const error = connection.lastError
    ? `  last error ${iso(connection.lastErrorAt)}: ${connection.lastError}`
    : '';
  return (
    `${connection.id}  ${connection.orgDomain}  ${connection.appName}  ${status}  ` +
    `last sync ${iso(connection.syncedUntil)}  ${connection.itemCount} items${error}`
  );
}

const retryMessages: Record<RetryResult, (id: string) => string> = {
  requeued: (id) => `${id}: queued again`,
  'not-found': (id) => `error: no job has the id '${id}'`,
  'not-failed': (id) => `error: job ${id} has not failed; only failed jobs are retried`,
  duplicate: (id) => `error: job ${id} is queued or running again already`,
};

async function withStore(run: (store: Store) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await run(store);
  } finally {
    await store.close();
  }
}

/** `scout jobs`: the queue's live and failed jobs and every connection's sync state; `scout jobs retry <id>`. */
export function registerJobCommands(program: Command): void {
  const jobsCommand = program
    .command('jobs')
    .description(
      "list queued, running and failed jobs and every connection's last sync, items and last error",
    )
    .action(() =>
      withStore(async (store) => {
        const [listed, connections] = await Promise.all([listJobs(store.db), connectionSyncStates(store.db)]);
        const lines = [
          `jobs (${listed.length} queued, running or failed)`,
          ...listed.map(jobLine),
          `connections (${connections.length})`,
          ...connections.map(connectionLine),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      }),
    );

  jobsCommand
    .command('retry')
    .description('queue a failed job again, due now, with its attempts reset')
    .argument('<id>', "the job's id, as `scout jobs` lists it")
    .action((id: string) =>
      withStore(async (store) => {
        const result = await retryJob(store.db, id);
        // Thrown, not command.error(), so the store closes before the CLI exits with 1.
        if (result !== 'requeued') throw new Error(retryMessages[result](id));
        process.stdout.write(`${retryMessages[result](id)}\n`);
      }),
    );
}
