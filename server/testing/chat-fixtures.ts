import type { Reference } from '../../common/api/messages';
import {
  documents,
  messages,
  topicMembers,
  topics,
  type Document,
  type Message,
  type NewMessage,
  type NewTopic,
  type Org,
  type Topic,
  type User,
} from '../db/schema';
import type { Db } from '../db/store';

/**
 * Topics, messages and documents written straight into the store, as the chat pipeline and the indexer would
 * leave them, so the HTTP API that reads them is tested on its own.
 */
export async function createTopic(
  db: Db,
  author: User,
  options: Partial<
    Pick<NewTopic, 'topicTitle' | 'visibility' | 'isMultiplayer' | 'botId' | 'createdAt' | 'updatedAt'>
  > & {
    members?: User[];
  } = {},
): Promise<Topic> {
  const { members = [], ...values } = options;
  const [topic] = await db
    .insert(topics)
    .values({
      orgId: author.orgId,
      authorId: author.id,
      topicTitle: 'A topic',
      isMultiplayer: members.length > 0,
      ...values,
    })
    .returning();
  if (!topic) throw new Error('topic insert returned nothing');
  for (const member of members) await addTopicMemberRow(db, topic, member);
  return topic;
}

export async function addTopicMemberRow(
  db: Db,
  topic: Topic,
  user: User,
  options: { lastReadAt?: Date | null; role?: 'CREATOR' | 'EDITOR' } = {},
): Promise<void> {
  await db.insert(topicMembers).values({
    orgId: topic.orgId,
    topicId: topic.id,
    userId: user.id,
    role: options.role ?? 'EDITOR',
    lastReadAt: options.lastReadAt ?? null,
  });
}

export async function createMessage(
  db: Db,
  topic: Topic,
  options: Partial<Omit<NewMessage, 'orgId' | 'topicId'>> & { at?: Date } = {},
): Promise<Message> {
  const { at, ...values } = options;
  const [row] = await db
    .insert(messages)
    .values({
      orgId: topic.orgId,
      topicId: topic.id,
      sender: 'USER',
      messageText: 'A question?',
      status: 'SUCCESS',
      ...(at ? { createdAt: at, updatedAt: at, tsSentAt: at } : {}),
      ...values,
    })
    .returning();
  if (!row) throw new Error('message insert returned nothing');
  return row;
}

/** A question by `asker` and the assistant's answer to it, citing `references`. */
export async function createExchange(
  db: Db,
  topic: Topic,
  asker: User,
  options: { question?: string; answer?: string; references?: Reference[]; at?: Date } = {},
): Promise<{ question: Message; answer: Message }> {
  const question = await createMessage(db, topic, {
    sender: 'USER',
    authorId: asker.id,
    messageText: options.question ?? 'What is our travel policy?',
    at: options.at,
  });
  const answer = await createMessage(db, topic, {
    sender: 'ASSISTANT',
    replyToId: question.id,
    messageText: options.answer ?? 'Book economy [1].',
    references: options.references ?? [],
    at: options.at && new Date(options.at.getTime() + 1000),
  });
  return { question, answer };
}

let documentCount = 0;

/** An indexed document of the org readable by `acl`. */
export async function createDocument(
  db: Db,
  org: Org,
  options: { title?: string; acl: string[]; source?: string },
): Promise<Document> {
  documentCount += 1;
  const [doc] = await db
    .insert(documents)
    .values({
      orgId: org.id,
      source: options.source ?? 'gdrive',
      externalId: `doc-${documentCount}`,
      title: options.title ?? `Document ${documentCount}`,
      body: 'Travel policy: book economy.',
      acl: options.acl,
    })
    .returning();
  if (!doc) throw new Error('document insert returned nothing');
  return doc;
}

/** A reference as the pipeline stores it, to an indexed document or to a web page. */
export function referenceTo(target: Document | { webUrl: string }): Reference {
  const isDoc = 'id' in target;
  return {
    id: isDoc ? target.id : `web-${target.webUrl.length}`,
    url: isDoc ? (target.url ?? null) : target.webUrl,
    title: isDoc ? target.title : target.webUrl,
    source: isDoc ? target.source : 'web',
    snippet: 'book economy',
    author: { email: null, name: null, photo: null },
    modified_time: null,
    object_type: null,
    extra_fields: {},
  };
}
