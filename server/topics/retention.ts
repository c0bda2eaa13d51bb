// Chat retention (spec shell-and-account §3 Org chatRetentionDays, §9: null means no limit). The daily
// `chat.retention` job deletes, in every org with a retention, the topics whose last activity is older than it;
// their messages, members and file links go with them.
import { and, eq, gte, inArray, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import { messages, orgs, topics } from '../db/schema';
import type { Db } from '../db/store';
import { DAY_MS, type Schedule } from '../jobs/schedule';
import { registerJobHandler } from '../jobs/worker';

export const CHAT_RETENTION_JOB = 'chat.retention';
export const chatRetentionSchedule: Schedule = { kind: CHAT_RETENTION_JOB, everyMs: DAY_MS };

/** Topics deleted per statement, so one org's backlog never holds a long lock. */
const DELETE_BATCH = 500;

/** Deletes the org's topics with no activity (topic change, message written or updated) since `cutoff`. */
export async function deleteTopicsIdleSince(
  db: Db,
  orgId: string,
  cutoff: Date,
  signal?: AbortSignal,
): Promise<number> {
  const idle = db
    .select({ id: topics.id })
    .from(topics)
    .where(
      and(
        eq(topics.orgId, orgId),
        lt(topics.updatedAt, cutoff),
        notExists(
          db
            .select({ one: sql`1` })
            .from(messages)
            .where(
              and(
                eq(messages.orgId, orgId),
                eq(messages.topicId, topics.id),
                or(gte(messages.createdAt, cutoff), gte(messages.updatedAt, cutoff)),
              ),
            ),
        ),
      ),
    )
    .limit(DELETE_BATCH);
  let deleted = 0;
  while (!signal?.aborted) {
    const batch = await db
      .delete(topics)
      .where(and(eq(topics.orgId, orgId), inArray(topics.id, idle)))
      .returning({ id: topics.id });
    deleted += batch.length;
    if (batch.length < DELETE_BATCH) break;
  }
  return deleted;
}

/** Applies every org's retention as of `now`; answers the topics deleted per org that had any. */
export async function applyChatRetention(
  db: Db,
  now = new Date(),
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  const withRetention = await db
    .select({ id: orgs.id, days: orgs.chatRetentionDays })
    .from(orgs)
    .where(and(isNotNull(orgs.chatRetentionDays), sql`${orgs.chatRetentionDays} > 0`));
  const deleted = new Map<string, number>();
  for (const org of withRetention) {
    if (signal?.aborted) break;
    const count = await deleteTopicsIdleSince(
      db,
      org.id,
      new Date(now.getTime() - (org.days ?? 0) * DAY_MS),
      signal,
    );
    if (count > 0) deleted.set(org.id, count);
  }
  return deleted;
}

registerJobHandler(CHAT_RETENTION_JOB, async (_job, { store, logger, signal }) => {
  const deleted = await applyChatRetention(store.db, new Date(), signal);
  if (deleted.size > 0) logger.info({ deleted: Object.fromEntries(deleted) }, 'expired topics deleted');
});
