import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/store';
import { jobs } from '../db/schema';
import { newId } from '../db/ids';

export type Job = typeof jobs.$inferSelect;

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
  });
  return id;
}

/**
 * Claims the oldest due job of the given kinds, or one whose lease expired. `FOR UPDATE SKIP LOCKED` lets any
 * number of workers poll the same table without taking the same row twice.
 */
export async function claimJob(
  db: Db,
  workerId: string,
  kinds: readonly string[],
  leaseMs: number = DEFAULT_LEASE_MS,
): Promise<Job | null> {
  if (kinds.length === 0) return null;
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  const leaseUntil = new Date(Date.now() + leaseMs);
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
        sql`(select ${jobs.id} from ${jobs}
              where ${jobs.kind} in (${kindList})
                and ((${jobs.status} = 'queued' and ${jobs.runAt} <= now())
                  or (${jobs.status} = 'running' and ${jobs.lockedUntil} < now()))
              order by ${jobs.priority} desc, ${jobs.runAt}
              limit 1
              for update skip locked)`,
      ),
    )
    .returning();
  return claimed[0] ?? null;
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
