import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/store';
import { jobs, type jobLanes } from '../db/schema';
import { newId } from '../db/ids';

export type Job = typeof jobs.$inferSelect;
export type JobLane = (typeof jobLanes)[number];

/** A job whose worker died is taken again once its lease runs out. */
export const DEFAULT_LEASE_MS = 5 * 60_000;

export async function enqueueJob(
  db: Db,
  job: {
    kind: string;
    payload?: Record<string, unknown>;
    orgId?: string | null;
    runAt?: Date;
    dedupeKey?: string;
    lane?: JobLane;
    exclusiveKey?: string;
  },
): Promise<string> {
  const id = newId();
  await db.insert(jobs).values({
    id,
    kind: job.kind,
    payload: job.payload ?? {},
    orgId: job.orgId ?? null,
    runAt: job.runAt ?? new Date(),
    status: 'queued',
    dedupeKey: job.dedupeKey ?? null,
    lane: job.lane ?? 'quick',
    exclusiveKey: job.exclusiveKey ?? null,
  });
  return id;
}

/** PostgreSQL's unique_violation: two claimers raced for jobs of one exclusive key. */
const UNIQUE_VIOLATION = '23505';

/** Drizzle wraps the driver's error; its `cause` carries PostgreSQL's code. */
function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return (
    codeOf(error) === UNIQUE_VIOLATION || codeOf((error as { cause?: unknown }).cause) === UNIQUE_VIOLATION
  );
}

/**
 * Claims the oldest due job of the given kinds in the given lane, or one whose lease expired. `FOR UPDATE SKIP
 * LOCKED` lets any number of workers poll the same table without taking the same row twice. An expired lease is
 * never taken by another slot of the process holding it: that process is alive (it is us), its slot merely slow,
 * and taking it over would make the two slots steal the job from each other. A job whose exclusive
 * key another running job holds waits its turn; two claimers racing for two such jobs collide on the unique index,
 * and the loser claims nothing this time.
 */
export async function claimJob(
  db: Db,
  workerId: string,
  kinds: readonly string[],
  leaseMs: number = DEFAULT_LEASE_MS,
  lane?: JobLane,
): Promise<Job | null> {
  if (kinds.length === 0) return null;
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  const inLane = lane ? sql`and candidate.lane = ${lane}` : sql``;
  const leaseUntil = new Date(Date.now() + leaseMs);
  try {
    const claimed = await db
      .update(jobs)
      .set({
        status: 'running',
        lockedBy: workerId,
        lockedUntil: leaseUntil,
        attempts: sql`${jobs.attempts} + 1`,
      })
      .where(
        eq(
          jobs.id,
          sql`(select candidate.id from ${jobs} candidate
                where candidate.kind in (${kindList}) ${inLane}
                  and ((candidate.status = 'queued' and candidate.run_at <= now())
                    or (candidate.status = 'running' and candidate.locked_until < now()
                      and split_part(candidate.locked_by, '#', 1) <> split_part(${workerId}, '#', 1)))
                  and (candidate.exclusive_key is null or not exists (
                    select 1 from ${jobs} holder
                     where holder.exclusive_key = candidate.exclusive_key
                       and holder.status = 'running' and holder.id <> candidate.id))
                order by candidate.priority desc, candidate.run_at
                limit 1
                for update skip locked)`,
        ),
      )
      .returning();
    return claimed[0] ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export async function completeJob(db: Db, job: Job, workerId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', lockedBy: null, lockedUntil: null, lastError: null, finishedAt: new Date() })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
}

/** Retries with exponential back-off; after its maxAttempts the job stays failed for an operator to see. */
export async function failJob(db: Db, job: Job, workerId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const giveUp = job.attempts >= job.maxAttempts;
  const delayMs = Math.min(60 * 60_000, 1000 * 2 ** job.attempts);
  await db
    .update(jobs)
    .set({
      status: giveUp ? 'failed' : 'queued',
      runAt: new Date(Date.now() + delayMs),
      lockedBy: null,
      lockedUntil: null,
      lastError: message.slice(0, 2000),
      finishedAt: giveUp ? new Date() : null,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
}
