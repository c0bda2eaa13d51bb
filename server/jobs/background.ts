import type { Store } from '../db/store';
import type { Logger } from '../logger';
import { pruneSchedule, syncSchedule } from '../sync/jobs';
import { chatRetentionSchedule } from '../topics/retention';
import { runScheduler, type Schedule } from './schedule';
import { runWorker } from './worker';

/** Every recurring job. Importing a schedule's module also registers its job handler with the worker. */
const SCHEDULES: readonly Schedule[] = [chatRetentionSchedule, syncSchedule, pruneSchedule];

export type BackgroundWork = { stop(): Promise<void> };

/** The worker and the scheduler, as `scout serve` (by default) and `scout worker` run them. */
export function startBackgroundWork(store: Store, logger: Logger): BackgroundWork {
  const worker = runWorker(store, logger);
  const scheduler = runScheduler(store, logger, SCHEDULES);
  return {
    async stop() {
      await scheduler.stop();
      await worker.stop();
    },
  };
}
