// `POST /messages/create` (spec asking-questions §4 Topic access, §5, §7): a message to colleagues in a shared
// topic. Questions to the assistant go through the chat socket; this writes a USER message that needs no answer.
import {
  topicMessages,
  type CreateMessageRequest,
  type CreateMessageResponse,
} from '../../common/api/topics';
import type { Viewer } from '../context';
import { messages, topics, type Topic } from '../db/schema';
import type { Db, DbOrTx } from '../db/store';
import { sharedTopicAudience, type Notifier } from '../notifications/notifier';
import { badRequest, notFound } from '../errors';
import { requireTopicEdit } from '../policies/topics';
import { presentTopicAccess } from '../presenters/topic';
import { loadTopic, loadTopicOrg } from './access';
import { addEditors, requireSharedTopics, resolveTaggedMembers } from './members';
import { memberReader, presentMessages } from './messages';

/** Ours: the title a topic started by a message to colleagues gets (the assistant titles the ones it answers). */
const NEW_TOPIC_TITLE_MAX_CHARS = 100;

function titleFrom(message: string): string {
  const firstLine = message.split('\n').find((line) => line.trim()) ?? message;
  const words = firstLine.replace(/\s+/g, ' ').trim();
  return words.length > NEW_TOPIC_TITLE_MAX_CHARS
    ? `${words.slice(0, NEW_TOPIC_TITLE_MAX_CHARS - 1).trimEnd()}…`
    : words;
}

/** The topic to write in: the existing one the viewer may edit, or a new one of theirs by the id the app chose. */
async function topicToWriteIn(db: DbOrTx, viewer: Viewer, request: CreateMessageRequest): Promise<Topic> {
  const existing = await loadTopic(db, viewer, request.conversation_id);
  if (existing) {
    requireTopicEdit(existing.topic, existing.relation);
    return existing.topic;
  }
  const [created] = await db
    .insert(topics)
    .values({
      id: request.conversation_id,
      orgId: viewer.orgId,
      authorId: viewer.userId,
      topicTitle: titleFrom(request.message),
    })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  // taken meanwhile, or an id of another org's topic (which stays unknown to this viewer)
  const raced = await loadTopic(db, viewer, request.conversation_id);
  if (!raced) throw notFound(topicMessages.NOT_FOUND);
  requireTopicEdit(raced.topic, raced.relation);
  return raced.topic;
}

/**
 * Writes the message, then tells the people it concerns (after the write is committed, so every notification
 * points at a message that exists): those tagged in it (notify-tagged-users) and the topic's other members
 * (notify-new-msgs-in-shared-topics); nobody hears of it twice.
 */
export async function createSharedMessage(
  db: Db,
  notifier: Notifier,
  viewer: Viewer,
  request: CreateMessageRequest,
): Promise<CreateMessageResponse> {
  // every message written here is to colleagues in a shared topic
  await requireSharedTopics(db, viewer.orgId);
  const tagged = await resolveTaggedMembers(db, viewer.orgId, [
    ...request.tagged_users.map((person) => ({ id: person.id, email: person.email })),
    ...request.tagged_emails.map((email) => ({ email })),
  ]);
  const colleagues = tagged.filter((person) => person.id !== viewer.userId);
  const { response, topic, messageId } = await db.transaction(async (tx) => {
    const { topic } = await addEditors(tx, await topicToWriteIn(tx, viewer, request), colleagues);
    if (!topic.isMultiplayer) throw badRequest(topicMessages.NEEDS_SOMEONE_TAGGED);
    const now = new Date();
    const [row] = await tx
      .insert(messages)
      .values({
        orgId: viewer.orgId,
        topicId: topic.id,
        sender: 'USER',
        authorId: viewer.userId,
        messageText: request.message,
        status: 'SUCCESS',
        tsSentAt: now,
        extraData: {
          tagged_users: tagged.map((person) => ({ id: person.id, email: person.email })),
        },
      })
      .returning();
    if (!row) throw new Error('message insert returned nothing');
    const org = await loadTopicOrg(tx, viewer.orgId);
    const [message] = await presentMessages(
      tx,
      await memberReader(tx, viewer),
      [row],
      new Map([[topic.id, { topic, access: presentTopicAccess(topic, org) }]]),
    );
    if (!message) throw new Error('message presentation returned nothing');
    return { response: { topic_title: topic.topicTitle, message }, topic, messageId: row.id };
  });
  const taggedIds = colleagues.map((person) => person.id);
  const about = {
    orgId: viewer.orgId,
    topicId: topic.id,
    messageId,
    actorId: viewer.userId,
    messageText: request.message,
  };
  await notifier.notify({ ...about, type: 'notify-tagged-users', recipientIds: taggedIds });
  const others = (await sharedTopicAudience(db, topic)).filter((id) => !taggedIds.includes(id));
  await notifier.notify({ ...about, type: 'notify-new-msgs-in-shared-topics', recipientIds: others });
  return response;
}
