// The sidebar's topic lists (spec shell-and-account §2.8, §3 Topic list kinds, §7.3 GET /topics).
import { and, desc, eq, exists, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { TOPICS_PAGE_SIZE, type TopicsQuery, type TopicsResponse } from '../../common/api/topics';
import { parseFlags } from '../../common/flags';
import type { Viewer } from '../context';
import { botAdmins, bots, messages, topicMembers, topics } from '../db/schema';
import type { DbOrTx } from '../db/store';
import { presentTopicListItem } from '../presenters/topic';
import { loadTopicOrg } from './access';
import { containing } from '../db/like';

/** The latest of the topic's own change (title, sharing) and its newest message. */
export const lastActivityAt = sql<Date>`greatest(${topics.updatedAt}, (
  select max(${messages.createdAt}) from ${messages} where ${messages.topicId} = ${topics.id}))`;

/**
 * Messages of the topic the viewer has not read: sent after their last_read_at (all of them when they never marked
 * it read) and not sent by them. An answer to the viewer's own question counts as theirs.
 */
export function unreadCountOf(viewerId: string): SQL<number> {
  // "topics"."id" spelled out: drizzle drops the table name of columns in a select list, and "id" is ambiguous here
  return sql<number>`(
    select count(*)::int from messages m
    left join messages q on q.id = m.reply_to_id
    where m.topic_id = "topics"."id"
      and m.created_at > coalesce((
        select tm.last_read_at from topic_members tm
        where tm.topic_id = "topics"."id" and tm.user_id = ${viewerId}), '-infinity'::timestamptz)
      and m.author_id is distinct from ${viewerId}
      and not (m.sender = 'ASSISTANT' and q.author_id is not null and q.author_id = ${viewerId}))`;
}

/** The viewer is a member of the topic (added or tagged). */
export function isMemberOf(db: DbOrTx, viewer: Viewer): SQL {
  return exists(
    db
      .select({ one: sql`1` })
      .from(topicMembers)
      .where(and(eq(topicMembers.topicId, topics.id), eq(topicMembers.userId, viewer.userId))),
  );
}

function managedBotIds(db: DbOrTx, viewer: Viewer, botId: string | undefined) {
  return db
    .select({ id: bots.id })
    .from(bots)
    .innerJoin(botAdmins, eq(botAdmins.botId, bots.id))
    .where(
      and(
        eq(bots.orgId, viewer.orgId),
        eq(bots.isManaged, true),
        isNull(bots.deletedAt),
        eq(sql`lower(${botAdmins.email})`, viewer.email.toLowerCase()),
        botId ? eq(bots.id, botId) : undefined,
      ),
    );
}

/**
 * One page of the viewer's topics of one kind, most recent activity first. 'Shared with me' is a list of the
 * multiplayer feature: with the org's flag off it is empty (the topics themselves stay readable by their members).
 */
export async function listTopics(db: DbOrTx, viewer: Viewer, query: TopicsQuery): Promise<TopicsResponse> {
  if (query.topic_type === 'SHARED_WITH_ME') {
    const org = await loadTopicOrg(db, viewer.orgId);
    if (!parseFlags(org.flags).multiplayerEnabled) return { topics: [] };
  }
  const conditions: (SQL | undefined)[] = [eq(topics.orgId, viewer.orgId), eq(topics.archived, false)];
  switch (query.topic_type) {
    case 'MY_TOPICS':
      conditions.push(eq(topics.authorId, viewer.userId));
      break;
    case 'SHARED_WITH_ME':
      conditions.push(
        eq(topics.isMultiplayer, true),
        isMemberOf(db, viewer),
        or(isNull(topics.authorId), ne(topics.authorId, viewer.userId)),
      );
      break;
    case 'MANAGED_BOTS':
      conditions.push(inArray(topics.botId, managedBotIds(db, viewer, query.managed_bot_id)));
      break;
  }
  if (query.query) conditions.push(ilike(topics.topicTitle, containing(query.query)));
  const rows = await db
    .select({
      id: topics.id,
      topicTitle: topics.topicTitle,
      createdAt: topics.createdAt,
      unreadCount: unreadCountOf(viewer.userId),
    })
    .from(topics)
    .where(and(...conditions))
    .orderBy(desc(lastActivityAt), desc(topics.id))
    .limit(TOPICS_PAGE_SIZE)
    .offset((query.page - 1) * TOPICS_PAGE_SIZE);
  return { topics: rows.map((row) => presentTopicListItem(row, Number(row.unreadCount))) };
}
