import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import { leaseHolder } from './processes';
import { claimJob, completeJob, failJob, type Job, type JobLane } from './queue';

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

/** How many jobs of each lane one process runs at once. */
export type LaneSizes = Readonly<Record<JobLane, number>>;

export const DEFAULT_LANE_SIZES: LaneSizes = { quick: 2, long: 2 };

let workersStarted = 0;

/**
 * Polls the queue until stopped, running up to `lanes.quick` quick jobs and `lanes.long` long ones at once, each
 * slot with its own lease holder name, so a long crawl never holds up an upload's indexing. Stopping lets the jobs
 * in hand finish (their handlers see the abort signal and should commit what they have); an unfinished job's
 * lease expires and another worker resumes it.
 */
export function runWorker(
  store: Store,
  logger: Logger,
  options: { idleMs?: number; leaseMs?: number; lanes?: LaneSizes } = {},
): RunningWorker {
  const worker = ++workersStarted;
  const idleMs = options.idleMs ?? 1000;
  const lanes = options.lanes ?? DEFAULT_LANE_SIZES;
  const controller = new AbortController();

  const slot = async (lane: JobLane, index: number) => {
    const workerId = leaseHolder(`${worker}.${lane}.${index}`);
    while (!controller.signal.aborted) {
      let job: Job | null = null;
      try {
        job = await claimJob(store.db, workerId, [...handlers.keys()], options.leaseMs, lane);
      } catch (error) {
        logger.error({ err: error }, 'could not poll the job queue');
      }
      if (!job) {
        await sleep(idleMs, undefined, { signal: controller.signal }).catch(() => undefined);
        continue;
      }
      const handler = handlers.get(job.kind);
      const log = logger.child({ jobId: job.id, kind: job.kind, lane });
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

  const slots = (['quick', 'long'] as const).flatMap((lane) =>
    Array.from({ length: lanes[lane] }, (_, index) => slot(lane, index + 1)),
  );
  const done = Promise.all(slots);
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
