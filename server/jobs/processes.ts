// Which Scout processes are alive. Each process beats a heartbeat row (in job_cursors, keyed `process:<id>`) and
// names itself in the leases it takes, so a process that starts, and every process now and then, can tell the
// leases of a crashed one from those of a busy one and hand them back to the queue at once instead of after the
// lease's five minutes.
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { hostname } from 'node:os';
import { jobCursors, jobs } from '../db/schema';
import { newId } from '../db/ids';
import type { Db } from '../db/store';

/** host:pid:random. The random part tells two incarnations with one pid apart (containers restart as pid 1). */
export const PROCESS_ID = `${hostname()}:${process.pid}:${newId().slice(-8)}`;

export const PROCESS_HEARTBEAT_MS = 10_000;
/** Six missed beats: a process this quiet is gone (a live one whose event loop stalled this long loses its leases). */
export const PROCESS_STALE_MS = 60_000;

const HEARTBEAT_PREFIX = 'process:';

/** A lease holder's name: the process's id, then `#` and which of its workers. */
export function leaseHolder(label: string | number, processId: string = PROCESS_ID): string {
  return `${processId}#${label}`;
}

export async function beatHeartbeat(db: Db, now: Date, processId: string = PROCESS_ID): Promise<void> {
  await db
    .insert(jobCursors)
    .values({ key: HEARTBEAT_PREFIX + processId, lastRunAt: now })
    .onConflictDoUpdate({ target: jobCursors.key, set: { lastRunAt: now } });
}

/** A clean stop: nothing of this process is left for a sweep to wait on. */
export async function endHeartbeat(db: Db, processId: string = PROCESS_ID): Promise<void> {
  await db.delete(jobCursors).where(eq(jobCursors.key, HEARTBEAT_PREFIX + processId));
}

/** Gone for sure: a process of this host whose pid is not running, or a previous incarnation under our own pid. */
function diedOnThisHost(processId: string): boolean {
  const [host, pidText] = processId.split(':');
  if (host !== hostname() || processId === PROCESS_ID) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/**
 * Hands the running jobs of dead processes back to the queue (due now) and forgets their heartbeats. Dead: its
 * heartbeat is older than PROCESS_STALE_MS, or it was on this host and its pid is gone. `exclusive` (an embedded
 * store, which one process holds at a time) makes every other holder dead. Answers how many jobs were released.
 */
export async function releaseDeadLeases(db: Db, options: { now: Date; exclusive: boolean }): Promise<number> {
  const { now, exclusive } = options;
  const holderOf = sql<string>`split_part(${jobs.lockedBy}, '#', 1)`;
  const [beats, holders] = await Promise.all([
    db
      .select({ key: jobCursors.key, lastRunAt: jobCursors.lastRunAt })
      .from(jobCursors)
      .where(like(jobCursors.key, `${HEARTBEAT_PREFIX}%`)),
    db
      .selectDistinct({ processId: holderOf })
      .from(jobs)
      .where(and(eq(jobs.status, 'running'), sql`${jobs.lockedBy} is not null`)),
  ]);
  const staleBefore = now.getTime() - PROCESS_STALE_MS;
  const dead = new Set<string>();
  for (const beat of beats) {
    const processId = beat.key.slice(HEARTBEAT_PREFIX.length);
    if (processId === PROCESS_ID) continue;
    if (exclusive || (beat.lastRunAt?.getTime() ?? 0) < staleBefore || diedOnThisHost(processId)) {
      dead.add(processId);
    }
  }
  for (const { processId } of holders) {
    if (processId !== PROCESS_ID && (exclusive || diedOnThisHost(processId))) dead.add(processId);
  }
  if (dead.size === 0) return 0;
  return db.transaction(async (tx) => {
    const released = await tx
      .update(jobs)
      .set({ status: 'queued', lockedBy: null, lockedUntil: null, runAt: now })
      .where(and(eq(jobs.status, 'running'), inArray(holderOf, [...dead])))
      .returning({ id: jobs.id });
    await tx.delete(jobCursors).where(
      inArray(
        jobCursors.key,
        [...dead].map((processId) => HEARTBEAT_PREFIX + processId),
      ),
    );
    return released.length;
  });
}
