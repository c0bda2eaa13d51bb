// Recurring jobs. A tick enqueues each schedule's job when its period has passed since the last time it did; the
// last time lives in job_cursors, so restarts keep the rhythm and any number of processes may tick: the cursor's
// conditional update lets exactly one of them through per period, and the job's dedupe key keeps one live job.
import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { jobCursors, jobs } from '../db/schema';
import type { Db, Store } from '../db/store';
import type { Logger } from '../logger';
import { enqueueJob } from './queue';

export type Schedule = { kind: string; everyMs: number };

export const DAY_MS = 24 * 60 * 60_000;
/** How often the scheduler looks for due schedules. */
export const SCHEDULER_TICK_MS = 60_000;

const cursorKey = (schedule: Schedule) => `schedule:${schedule.kind}`;

/** Enqueues the system job of each due schedule; answers the kinds enqueued. */
export async function enqueueDueSchedules(
  db: Db,
  schedules: readonly Schedule[],
  now = new Date(),
): Promise<string[]> {
  const enqueued: string[] = [];
  for (const schedule of schedules) {
    const key = cursorKey(schedule);
    const dueBefore = new Date(now.getTime() - schedule.everyMs);
    const [claimed] = await db
      .insert(jobCursors)
      .values({ key, lastRunAt: now })
      .onConflictDoUpdate({
        target: jobCursors.key,
        set: { lastRunAt: now },
        setWhere: or(isNull(jobCursors.lastRunAt), lte(jobCursors.lastRunAt, dueBefore)),
      })
      .returning({ key: jobCursors.key });
    if (!claimed) continue;
    const [live] = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.dedupeKey, key), inArray(jobs.status, ['queued', 'running'])))
      .limit(1);
    if (live) continue;
    try {
      await enqueueJob(db, { kind: schedule.kind, dedupeKey: key, runAt: now });
      enqueued.push(schedule.kind);
    } catch (error) {
      // not enqueued: let the next tick try again rather than wait a whole period
      await db.update(jobCursors).set({ lastRunAt: null }).where(eq(jobCursors.key, key));
      throw error;
    }
  }
  return enqueued;
}

export type RunningScheduler = { stop(): Promise<void> };

/** Ticks until stopped (at once, then every tickMs). Run it beside the worker. */
export function runScheduler(
  store: Store,
  logger: Logger,
  schedules: readonly Schedule[],
  options: { tickMs?: number } = {},
): RunningScheduler {
  const controller = new AbortController();
  const loop = async () => {
    while (!controller.signal.aborted) {
      try {
        const kinds = await enqueueDueSchedules(store.db, schedules);
        if (kinds.length > 0) logger.info({ kinds }, 'scheduled jobs enqueued');
      } catch (error) {
        logger.error({ err: error }, 'could not enqueue scheduled jobs');
      }
      await sleep(options.tickMs ?? SCHEDULER_TICK_MS, undefined, { signal: controller.signal }).catch(
        () => undefined,
      );
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
