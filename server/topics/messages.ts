// Reading messages for presentation: everything a page of messages is shown with (authors, bots, files, the
// reader's feedback, which references they may still read) is loaded in one query per kind.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { messageIdOfResponse, ratingSchema, referenceVotesOf, responseIdOf } from '../../common/api/feedback';
import {
  ReferenceSource,
  type ChatMessage,
  type MessageFile,
  type TopicAccess,
} from '../../common/api/messages';
import type { TopicFile } from '../../common/api/topics';
import type { Viewer } from '../context';
import {
  bots,
  feedback,
  messageFiles,
  messages,
  uploads,
  users,
  type Message,
  type Topic,
  type Upload,
} from '../db/schema';
import type { DbOrTx } from '../db/store';
import {
  answerSources,
  isFileShown,
  presentMessage,
  readableDocuments,
  type ReaderFeedback,
  type ReferenceReader,
} from '../presenters/message';
import { viewerReadsDebugLogs } from '../policies/debug-logs';
import { presentMessageFile, presentTopicFile } from '../presenters/topic';
import { principalsFor, PUBLIC_PRINCIPAL } from '../search';

/** Who is reading: a signed-in member, or anyone through a public link. */
export type MessageReader = ReferenceReader & {
  userId: string | null;
  publicView: boolean;
  /** server/policies/debug-logs. */
  showDebugLogs: boolean;
};

export async function memberReader(db: DbOrTx, viewer: Viewer): Promise<MessageReader> {
  const [principals, showDebugLogs] = await Promise.all([
    principalsFor(db, viewer.orgId, viewer.email),
    viewerReadsDebugLogs(db, viewer),
  ]);
  return { orgId: viewer.orgId, principals, userId: viewer.userId, publicView: false, showDebugLogs };
}

/** Anyone with the link: only documents readable by anyone stay referenced. */
export function publicReader(orgId: string): MessageReader {
  return { orgId, principals: [PUBLIC_PRINCIPAL], userId: null, publicView: true, showDebugLogs: false };
}

/** A topic's messages in order (row_id is monotonic). */
export function topicMessageRows(db: DbOrTx, orgId: string, topicId: string): Promise<Message[]> {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.orgId, orgId), eq(messages.topicId, topicId)))
    .orderBy(asc(messages.rowId));
}

const ids = <T>(values: readonly (T | null | undefined)[]) => [
  ...new Set(values.filter((value): value is T => value !== null && value !== undefined)),
];

/** The uploads the reader is shown (isFileShown) of those loaded. */
async function shownFiles<F extends Pick<Upload, 'creatorId' | 'documentId'>>(
  db: DbOrTx,
  reader: MessageReader,
  files: readonly F[],
): Promise<F[]> {
  const isReadable = await readableDocuments(
    db,
    reader,
    files.flatMap((file) =>
      file.documentId ? [{ id: file.documentId, source: ReferenceSource.files }] : [],
    ),
  );
  return files.filter((file) => isFileShown(file, reader.userId, isReadable));
}

async function filesByMessage(
  db: DbOrTx,
  reader: MessageReader,
  messageIds: string[],
): Promise<Map<string, MessageFile[]>> {
  const map = new Map<string, MessageFile[]>();
  if (messageIds.length === 0 || reader.publicView) return map;
  const loaded = await db
    .select({
      messageId: messageFiles.messageId,
      id: uploads.id,
      fileName: uploads.fileName,
      totalChunks: uploads.totalChunks,
      creatorId: uploads.creatorId,
      documentId: uploads.documentId,
    })
    .from(messageFiles)
    .innerJoin(uploads, eq(uploads.id, messageFiles.uploadId))
    .where(and(eq(messageFiles.orgId, reader.orgId), inArray(messageFiles.messageId, messageIds)))
    .orderBy(asc(uploads.createdAt), asc(uploads.id));
  for (const row of await shownFiles(db, reader, loaded)) {
    const list = map.get(row.messageId) ?? [];
    list.push(presentMessageFile(row));
    map.set(row.messageId, list);
  }
  return map;
}

async function feedbackOf(
  db: DbOrTx,
  reader: MessageReader,
  messageIds: string[],
): Promise<Map<string, ReaderFeedback>> {
  const map = new Map<string, ReaderFeedback>();
  if (!reader.userId || reader.publicView || messageIds.length === 0) return map;
  const rows = await db
    .select({
      responseId: feedback.responseId,
      rating: feedback.rating,
      referencesFeedback: feedback.referencesFeedback,
    })
    .from(feedback)
    .where(
      and(
        eq(feedback.orgId, reader.orgId),
        eq(feedback.userId, reader.userId),
        inArray(feedback.responseId, messageIds.map(responseIdOf)),
      ),
    );
  for (const row of rows) {
    const rating = ratingSchema.safeParse(row.rating);
    if (!row.responseId || !rating.success) continue;
    map.set(messageIdOfResponse(row.responseId), {
      rating: rating.data,
      references: referenceVotesOf(row.referencesFeedback),
    });
  }
  return map;
}

/** The view of each topic the messages belong to. */
export type TopicView = { topic: Pick<Topic, 'id' | 'topicTitle' | 'createdAt'>; access: TopicAccess };

/** Messages as the reader sees them, in the order given. Every message's topic must be in `topicViews`. */
export async function presentMessages(
  db: DbOrTx,
  reader: MessageReader,
  rows: readonly Message[],
  topicViews: ReadonlyMap<string, TopicView>,
): Promise<ChatMessage[]> {
  if (rows.length === 0) return [];
  const messageIds = rows.map((row) => row.id);
  const authorIds = ids(rows.map((row) => row.authorId));
  const botIds = ids(rows.map((row) => row.botId));
  const [authors, botRows, files, feedbackByMessage, isReadable] = await Promise.all([
    authorIds.length === 0
      ? []
      : db
          .select()
          .from(users)
          .where(and(eq(users.orgId, reader.orgId), inArray(users.id, authorIds))),
    botIds.length === 0
      ? []
      : db
          .select({ id: bots.id, botName: bots.botName, icon: bots.icon })
          .from(bots)
          .where(and(eq(bots.orgId, reader.orgId), inArray(bots.id, botIds))),
    filesByMessage(db, reader, messageIds),
    feedbackOf(db, reader, messageIds),
    readableDocuments(db, reader, rows.flatMap(answerSources)),
  ]);
  const authorById = new Map(authors.map((user) => [user.id, user]));
  const botById = new Map(botRows.map((bot) => [bot.id, bot]));
  return rows.map((row) => {
    const view = topicViews.get(row.topicId);
    if (!view) throw new Error(`message ${row.id} presented without its topic`);
    return presentMessage(row, {
      topic: view.topic,
      access: view.access,
      author: (row.authorId && authorById.get(row.authorId)) || null,
      bot: (row.botId && botById.get(row.botId)) || null,
      files: files.get(row.id) ?? [],
      feedback: feedbackByMessage.get(row.id) ?? null,
      isReadable,
      publicView: reader.publicView,
      showDebugLogs: reader.showDebugLogs,
    });
  });
}

/** Files attached in each topic that the reader is shown, oldest first (the spec's topic file map). */
export async function filesByTopic(
  db: DbOrTx,
  reader: MessageReader,
  topicIds: readonly string[],
): Promise<Map<string, TopicFile[]>> {
  const map = new Map<string, TopicFile[]>(topicIds.map((id) => [id, []]));
  if (topicIds.length === 0) return map;
  const loaded = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.orgId, reader.orgId), inArray(uploads.conversationId, [...topicIds])))
    .orderBy(asc(uploads.createdAt), asc(uploads.id));
  for (const row of await shownFiles(db, reader, loaded))
    if (row.conversationId) map.get(row.conversationId)?.push(presentTopicFile(row));
  return map;
}
