// Reading one topic, a public topic, or one message (spec shell-and-account §7.3).
import { and, eq } from 'drizzle-orm';
import {
  topicMessages,
  type MessageByIdResponse,
  type PublicTopicResponse,
  type TopicByIdResponse,
} from '../../common/api/topics';
import type { Viewer } from '../context';
import { messages, orgs, topics, users } from '../db/schema';
import type { DbOrTx } from '../db/store';
import { notFound } from '../errors';
import { canViewTopic, isPubliclyReadable } from '../policies/topics';
import { presentTopicAccess, presentTopicPerson, presentTopicSummary } from '../presenters/topic';
import { loadTopic, loadTopicOrg, permissionsOf, topicToView } from './access';
import { filesByTopic, memberReader, presentMessages, publicReader, topicMessageRows } from './messages';

/** `GET /topics/topicById/{id}`: the topic, all its messages oldest first, and its files. */
export async function topicById(db: DbOrTx, viewer: Viewer, topicId: string): Promise<TopicByIdResponse> {
  const loaded = await topicToView(db, viewer, topicId);
  const { topic } = loaded;
  const reader = await memberReader(db, viewer);
  const [org, rows, [author], files] = await Promise.all([
    loadTopicOrg(db, viewer.orgId),
    topicMessageRows(db, viewer.orgId, topic.id),
    topic.authorId
      ? db
          .select()
          .from(users)
          .where(and(eq(users.orgId, viewer.orgId), eq(users.id, topic.authorId)))
          .limit(1)
      : [],
    filesByTopic(db, reader, [topic.id]),
  ]);
  const access = presentTopicAccess(topic, org);
  return {
    ...presentTopicSummary(topic, org, permissionsOf(loaded)),
    author: author ? presentTopicPerson(author) : null,
    messages: await presentMessages(db, reader, rows, new Map([[topic.id, { topic, access }]])),
    topic_files: files.get(topic.id) ?? [],
  };
}

/**
 * `GET /topics/publicTopicById/{id}`, for anyone: a topic that is public now (its org allows public topics and has
 * the flag on). Anything else is a 404 that does not tell a private topic from none.
 */
export async function publicTopicById(db: DbOrTx, topicId: string): Promise<PublicTopicResponse> {
  const [found] = await db
    .select({ topic: topics, org: { publicTopicsEnabled: orgs.publicTopicsEnabled, flags: orgs.flags } })
    .from(topics)
    .innerJoin(orgs, eq(orgs.id, topics.orgId))
    .where(eq(topics.id, topicId))
    .limit(1);
  if (!found || !isPubliclyReadable(found.topic, found.org)) throw notFound(topicMessages.NOT_FOUND);
  const { topic, org } = found;
  const rows = await topicMessageRows(db, topic.orgId, topic.id);
  const access = presentTopicAccess(topic, org);
  return {
    conversation_id: topic.id,
    topic_title: topic.topicTitle,
    conversation_timestamp: topic.createdAt.toISOString(),
    messages: await presentMessages(
      db,
      publicReader(topic.orgId),
      rows,
      new Map([[topic.id, { topic, access }]]),
    ),
  };
}

/** `GET /messages/message/{id}`: one message of a topic the viewer may see (how the app finalises a saved answer). */
export async function messageById(
  db: DbOrTx,
  viewer: Viewer,
  messageId: string,
): Promise<MessageByIdResponse> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.orgId, viewer.orgId), eq(messages.id, messageId)))
    .limit(1);
  const loaded = row && (await loadTopic(db, viewer, row.topicId));
  if (!row || !loaded || !canViewTopic(loaded.topic, loaded.relation)) {
    throw notFound(topicMessages.MESSAGE_NOT_FOUND);
  }
  const [org, reader] = await Promise.all([loadTopicOrg(db, viewer.orgId), memberReader(db, viewer)]);
  const { topic } = loaded;
  const [message] = await presentMessages(
    db,
    reader,
    [row],
    new Map([[topic.id, { topic, access: presentTopicAccess(topic, org) }]]),
  );
  if (!message) throw new Error('message presentation returned nothing');
  return { data: { status: message.status, message_data: { message_text: message.messageText }, message } };
}
