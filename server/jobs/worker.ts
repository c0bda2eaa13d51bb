import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import { leaseHolder } from './processes';
import { claimJob, completeJob, failJob, type Job } from './queue';

export type JobHandler = (
  job: Job,
  context: { store: Store; logger: Logger; signal: AbortSignal },
) => Promise<void>;

/** Job kinds and their handlers. Each domain registers its own kinds at import time (syncs, indexing, pruning). */
const handlers = new Map<string, JobHandler>();

export function registerJobHandler(kind: string, handler: JobHandler): void {
  if (handlers.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
  handlers.set(kind, handler);
}

export type RunningWorker = { stop(): Promise<void> };

let workersStarted = 0;

/**
 * Polls the queue until stopped. Stopping lets the job in hand finish (its handler sees the abort signal and
 * should commit what it has); an unfinished job's lease expires and another worker resumes it.
 */
export function runWorker(
  store: Store,
  logger: Logger,
  options: { idleMs?: number; leaseMs?: number } = {},
): RunningWorker {
  const workerId = leaseHolder(++workersStarted);
  const idleMs = options.idleMs ?? 1000;
  const controller = new AbortController();

  const loop = async () => {
    while (!controller.signal.aborted) {
      let job: Job | null = null;
      try {
        job = await claimJob(store.db, workerId, [...handlers.keys()], options.leaseMs);
      } catch (error) {
        logger.error({ err: error }, 'could not poll the job queue');
      }
      if (!job) {
        await sleep(idleMs, undefined, { signal: controller.signal }).catch(() => undefined);
        continue;
      }
      const handler = handlers.get(job.kind);
      const log = logger.child({ jobId: job.id, kind: job.kind });
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        await handler(job, { store, logger: log, signal: controller.signal });
        await completeJob(store.db, job, workerId);
      } catch (error) {
        log.warn({ err: error, attempts: job.attempts }, 'job failed');
        await failJob(store.db, job, workerId, error).catch((failure: unknown) =>
          log.error({ err: failure }, 'could not record the job failure'),
        );
      }
    }
  };

  const done = loop();
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
