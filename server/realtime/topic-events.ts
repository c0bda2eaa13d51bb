/**
 * Telling people a topic changed: its open readers (`topic:{id}`: read it again, and have their access checked) and
 * its owner and members (`user`: their topic lists changed — they were added or tagged, or it was renamed or
 * re-shared).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { topicMembers, topics } from '../db/schema';
import type { DbOrTx } from '../db/store';
import type { RealtimeHub } from './hub';

/** The topic's owner and members: whose topic lists show it. Read before a delete, whose rows cascade away. */
export async function topicAudience(db: DbOrTx, orgId: string, topicId: string): Promise<string[]> {
  const [owner, members] = await Promise.all([
    db
      .select({ userId: topics.authorId })
      .from(topics)
      .where(and(eq(topics.orgId, orgId), eq(topics.id, topicId))),
    db
      .select({ userId: topicMembers.userId })
      .from(topicMembers)
      .where(and(eq(topicMembers.orgId, orgId), eq(topicMembers.topicId, topicId))),
  ]);
  const ids = [...owner, ...members].flatMap((row) => (row.userId ? [row.userId] : []));
  return [...new Set(ids)];
}

export function announceTopicChange(
  hub: RealtimeHub,
  orgId: string,
  topicId: string,
  audience: readonly string[],
): void {
  hub.publish(orgId, { kind: 'topic', topicId }, { type: 'topic.changed', topicId });
  for (const userId of audience) hub.publish(orgId, { kind: 'user', userId }, { type: 'topics.changed' });
}

/**
 * After a change a route made to a topic: tells its readers and its owner and members (`audience`, or read now).
 * The change is made whatever happens here: a failure to tell is logged, never answered to the caller.
 */
export async function announceAfterChange(
  app: FastifyInstance,
  orgId: string,
  topicId: string,
  audience?: readonly string[],
): Promise<void> {
  try {
    const people = audience ?? (await topicAudience(app.ctx.store.db, orgId, topicId));
    announceTopicChange(app.realtime, orgId, topicId, people);
  } catch (error) {
    app.log.warn({ err: error, topicId }, 'realtime: telling a topic change failed');
  }
}
