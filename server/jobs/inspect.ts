// What an operator sees of the job queue (`scout jobs`): the jobs queued, running or failed, and a failed job put
// back in the queue.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { jobs, type jobStatuses } from '../db/schema';
import type { Db } from '../db/store';
import type { Job } from './queue';

type JobStatus = (typeof jobStatuses)[number];

export const LISTED_STATUSES: readonly JobStatus[] = ['queued', 'running', 'failed'];

export type JobListing = Pick<
  Job,
  | 'id'
  | 'kind'
  | 'status'
  | 'lane'
  | 'attempts'
  | 'maxAttempts'
  | 'runAt'
  | 'lockedBy'
  | 'lastError'
  | 'payload'
>;

/** Running first, then queued by when they are due, then failed, newest first; at most `limit`. */
export async function listJobs(
  db: Db,
  statuses: readonly JobStatus[] = LISTED_STATUSES,
  limit = 200,
): Promise<JobListing[]> {
  const rows = await db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      status: jobs.status,
      lane: jobs.lane,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      runAt: jobs.runAt,
      lockedBy: jobs.lockedBy,
      lastError: jobs.lastError,
      payload: jobs.payload,
    })
    .from(jobs)
    .where(inArray(jobs.status, [...statuses]))
    .orderBy(asc(jobs.runAt))
    .limit(limit);
  const rank = (status: JobStatus) => ['running', 'queued', 'failed'].indexOf(status);
  return rows.sort(
    (a, b) =>
      rank(a.status) - rank(b.status) || (a.status === 'failed' ? b.runAt.getTime() - a.runAt.getTime() : 0),
  );
}

export type RetryResult = 'requeued' | 'not-found' | 'not-failed' | 'duplicate';

/**
 * Puts a failed job back in the queue, due now and with its attempts reset. A job of the same dedupe key that is
 * already live (queued again since) makes the retry pointless: the unique index refuses it and we say so.
 */
export async function retryJob(db: Db, id: string): Promise<RetryResult> {
  const [job] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)).limit(1);
  if (!job) return 'not-found';
  if (job.status !== 'failed') return 'not-failed';
  try {
    await db
      .update(jobs)
      .set({ status: 'queued', runAt: new Date(), attempts: 0, finishedAt: null })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')));
    return 'requeued';
  } catch (error) {
    const code = (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code;
    if (code === '23505' || (error as { code?: unknown }).code === '23505') return 'duplicate';
    throw error;
  }
}
