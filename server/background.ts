// Background work as `scout serve` and `scout worker` compose it: the domains' schedules and job handlers meet
// here, where the process starts, so jobs/ (the queue, the worker, the scheduler) depends on none of its users.
import type { Store } from './db/store';
import type { Logger } from './logger';
import { oauthStatesCleanupSchedule } from './api/oauth/states-cleanup';
import { embeddingsBackfillSchedule } from './search/embeddings-job';
import { permissionSyncSchedule, pruneSchedule, syncSchedule } from './sync/jobs';
import { chatRetentionSchedule } from './topics/retention';
import { runScheduler, type Schedule } from './jobs/schedule';
import { DEFAULT_LANE_SIZES, runWorker, type LaneSizes } from './jobs/worker';
// Job handlers without a schedule register on import too; a worker process imports no routes to load them.
import './uploads/index-job';

/** Every recurring job. Importing a schedule's module also registers its job handler with the worker. */
const SCHEDULES: readonly Schedule[] = [
  chatRetentionSchedule,
  syncSchedule,
  pruneSchedule,
  permissionSyncSchedule,
  oauthStatesCleanupSchedule,
  embeddingsBackfillSchedule,
];

export type BackgroundWork = { stop(): Promise<void> };

/** The worker and the scheduler, as `scout serve` (by default) and `scout worker` run them. */
export function startBackgroundWork(
  store: Store,
  logger: Logger,
  lanes: LaneSizes = DEFAULT_LANE_SIZES,
): BackgroundWork {
  const worker = runWorker(store, logger, { lanes });
  const scheduler = runScheduler(store, logger, SCHEDULES);
  return {
    async stop() {
      await scheduler.stop();
      await worker.stop();
    },
  };
}
