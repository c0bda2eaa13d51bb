// The main chat page's history (spec shell-and-account §7.3 GET /_chatHistory, asking-questions §2): the viewer's
// messages across their topics, newest first, paged upward by time.
import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  CHAT_HISTORY_PAGE_SIZE,
  type ChatHistoryQuery,
  type ChatHistoryResponse,
} from '../../common/api/topics';
import type { Viewer } from '../context';
import { messages, topics } from '../db/schema';
import type { DbOrTx } from '../db/store';
import { presentTopicAccess } from '../presenters/topic';
import { loadTopicOrg } from './access';
import { isMemberOf } from './list';
import { filesByTopic, memberReader, presentMessages, type TopicView } from './messages';

/** When a message was sent, as its tsSentAt shows it. */
const sentAt = sql<Date>`coalesce(${messages.tsSentAt}, ${messages.createdAt})`;
const sentBefore = (instant: Date): SQL => sql`${sentAt} < ${instant.toISOString()}::timestamptz`;

/**
 * Up to a page of messages sent before scroll_timestamp. Timestamps travel with millisecond precision, so a page
 * never ends inside a millisecond: it takes every message of its oldest millisecond, and the next page (before that
 * millisecond) neither repeats nor skips one.
 */
export async function chatHistory(
  db: DbOrTx,
  viewer: Viewer,
  query: ChatHistoryQuery,
): Promise<ChatHistoryResponse> {
  const viewerTopics = db
    .select({ id: topics.id })
    .from(topics)
    .where(
      and(
        eq(topics.orgId, viewer.orgId),
        eq(topics.archived, false),
        or(eq(topics.authorId, viewer.userId), and(eq(topics.isMultiplayer, true), isMemberOf(db, viewer))),
      ),
    );
  const base = and(eq(messages.orgId, viewer.orgId), inArray(messages.topicId, viewerTopics));
  const before = query.scroll_timestamp ? sentBefore(query.scroll_timestamp) : undefined;
  const [boundary] = await db
    .select({ at: sentAt.mapWith((value: Date | string) => new Date(value)) })
    .from(messages)
    .where(and(base, before))
    .orderBy(desc(sentAt), desc(messages.rowId))
    .offset(CHAT_HISTORY_PAGE_SIZE - 1)
    .limit(1);
  // the boundary's millisecond (JavaScript dates drop the store's microseconds)
  const oldest = boundary?.at ?? null;
  const pageWhere = and(
    base,
    before,
    oldest ? sql`${sentAt} >= ${oldest.toISOString()}::timestamptz` : undefined,
  );
  const [rows, older] = await Promise.all([
    db.select().from(messages).where(pageWhere).orderBy(desc(sentAt), desc(messages.rowId)),
    oldest
      ? db
          .select({ id: messages.id })
          .from(messages)
          .where(and(base, sentBefore(oldest)))
          .limit(1)
      : [],
  ]);

  const topicIds = [...new Set(rows.map((row) => row.topicId))];
  const reader = await memberReader(db, viewer);
  const [org, topicRows, files] = await Promise.all([
    loadTopicOrg(db, viewer.orgId),
    topicIds.length === 0
      ? []
      : db
          .select()
          .from(topics)
          .where(and(eq(topics.orgId, viewer.orgId), inArray(topics.id, topicIds))),
    filesByTopic(db, reader, topicIds),
  ]);
  const views = new Map<string, TopicView>(
    topicRows.map((topic) => [topic.id, { topic, access: presentTopicAccess(topic, org) }]),
  );
  return {
    history: await presentMessages(db, reader, rows, views),
    conversation_files_map: Object.fromEntries(files),
    has_more: older.length > 0,
  };
}
