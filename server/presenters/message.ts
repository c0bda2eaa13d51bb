import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Rating, ReferenceVotes } from '../../common/api/feedback';
import {
  allReferencesSummarySchema,
  debugLogsSchema,
  messageExtraDataSchema,
  referenceSchema,
  ReferenceSource,
  skillRetrievedSchema,
  type AllReferencesSummary,
  type ChatMessage,
  type DebugLogs,
  type MessageFile,
  type Reference,
  type SkillRetrieved,
  type TopicAccess,
} from '../../common/api/messages';
import { chat as chatStrings } from '../../common/strings';
import { documents, type Bot, type Message, type Topic, type Upload, type User } from '../db/schema';
import type { DbOrTx } from '../db/store';
import type { Principal } from '../search';
import { memberNameOf } from './member';
import { displayNameOf } from './user';

/** Who reads references now: their org and their principals (server/search principalsFor; ['public'] for anyone). */
export type ReferenceReader = { orgId: string; principals: readonly Principal[] };

/** Something that names an indexed document: a reference, or a retrieved document of the debug logs. */
type DocumentMention = { id: string; source: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Web results are pages of the open web, not documents of the org: whoever sees the answer may see them. */
const isWebResult = (mention: DocumentMention) => mention.source === ReferenceSource.web;

/**
 * Whether the reader may read each mentioned document now. References were checked against the asker's access
 * when the answer was made; a colleague reading a shared topic, or the asker after an ACL change, may no longer
 * read some of them. Fails closed: a document that is gone, of another org, or not named by a document id is not
 * readable.
 */
export async function readableDocuments(
  db: DbOrTx,
  reader: ReferenceReader,
  mentions: readonly DocumentMention[],
): Promise<(mention: DocumentMention) => boolean> {
  const ids = [...new Set(mentions.filter((m) => !isWebResult(m) && UUID.test(m.id)).map((m) => m.id))];
  const readable = new Set<string>();
  if (ids.length > 0 && reader.principals.length > 0) {
    const rows = await db
      .select({ id: documents.id })
      .from(documents)
      .where(
        and(
          eq(documents.orgId, reader.orgId),
          inArray(documents.id, ids),
          sql`${documents.acl} && ${sql.param([...reader.principals])}::text[]`,
        ),
      );
    for (const row of rows) readable.add(row.id);
  }
  return (mention) => isWebResult(mention) || readable.has(mention.id);
}

/** The references the reader may still read, in their order (so an answer's [n] still finds the n-th it keeps). */
export async function filterReadableReferences<R extends DocumentMention>(
  db: DbOrTx,
  reader: ReferenceReader,
  refs: readonly R[],
): Promise<R[]> {
  const isReadable = await readableDocuments(db, reader, refs);
  return refs.filter(isReadable);
}

/** Stored references in the API's shape; a malformed entry is dropped rather than failing the whole answer. */
export function storedReferences(row: Pick<Message, 'references'>): Reference[] {
  return row.references.flatMap((stored) => {
    const parsed = referenceSchema.safeParse(stored);
    return parsed.success ? [parsed.data] : [];
  });
}

export function storedDebugLogs(row: Pick<Message, 'debugLogs'>): DebugLogs | null {
  const parsed = debugLogsSchema.safeParse(row.debugLogs);
  return parsed.success ? parsed.data : null;
}

/**
 * The documents an answer was built from (every passage its prompt held), recorded on the row's extraData under
 * BUILT_FROM_KEY before the answer streams. Never shown: it only decides who may read the answer.
 */
export const BUILT_FROM_KEY = 'builtFrom';
const builtFromSchema = z.array(z.object({ id: z.string(), source: z.string() }));
export type BuiltFrom = z.infer<typeof builtFromSchema>;

type AnswerRow = Pick<
  Message,
  | 'sender'
  | 'messageText'
  | 'references'
  | 'allReferencesSummary'
  | 'relatedSearches'
  | 'skillRetrieved'
  | 'debugLogs'
  | 'extraData'
>;

/**
 * Every document an answer names or drew on: the recorded sources, the references and the retrieved documents of
 * its debug logs (answers saved before sources were recorded have only those two).
 */
export function answerSources(row: AnswerRow): DocumentMention[] {
  const extra = row.extraData as Record<string, unknown> | null;
  const recorded = builtFromSchema.safeParse(extra?.[BUILT_FROM_KEY]);
  return [
    ...(recorded.success ? recorded.data : []),
    ...storedReferences(row),
    ...(storedDebugLogs(row)?.doc_data ?? []),
  ];
}

/** What of an answer a reader is shown: the fields of ChatMessage and ANSWER_COMPLETE that come from its sources. */
export type AnswerView = {
  messageText: string;
  references: Reference[];
  allReferencesSummary: AllReferencesSummary | null;
  relatedSearches: string[];
  skillRetrieved: SkillRetrieved[] | null;
  /** The text and everything computed from the sources are withheld. */
  withheld: boolean;
};

/**
 * The one rule for what a reader may see of a stored message, on every read path (topic pages, chat history, one
 * message, the public page, the chat socket's replays). An answer quotes, paraphrases and counts its sources, and
 * its related searches and title suggestions come from their titles: when it drew on any document the reader may
 * not read now, its text and all of that are withheld, and only the references they may read are kept. The asker
 * is a reader like any other, so a revocation applies to them too. A user's own question is shown as written.
 */
export function answerView(row: AnswerRow, isReadable: (mention: DocumentMention) => boolean): AnswerView {
  const references = storedReferences(row).filter(isReadable);
  if (row.sender === 'ASSISTANT' && !answerSources(row).every(isReadable)) {
    return {
      messageText: chatStrings.ANSWER_WITHHELD,
      references,
      allReferencesSummary: null,
      relatedSearches: [],
      skillRetrieved: null,
      withheld: true,
    };
  }
  const summary = allReferencesSummarySchema.safeParse(row.allReferencesSummary);
  const skills = skillRetrievedSchema.array().safeParse(row.skillRetrieved);
  return {
    messageText: row.messageText,
    references,
    allReferencesSummary: summary.success ? summary.data : null,
    relatedSearches: row.relatedSearches.filter((entry): entry is string => typeof entry === 'string'),
    skillRetrieved: skills.success ? skills.data : null,
    withheld: false,
  };
}

/**
 * An attached file is shown to whoever uploaded it and to readers of the document it became: its name is the
 * uploader's to share only as far as the file itself is shared.
 */
export function isFileShown(
  file: Pick<Upload, 'creatorId' | 'documentId'>,
  readerId: string | null,
  isReadable: (mention: DocumentMention) => boolean,
): boolean {
  if (readerId !== null && file.creatorId === readerId) return true;
  return file.documentId !== null && isReadable({ id: file.documentId, source: ReferenceSource.files });
}

/** The reader's own feedback on an answer: their thumb and their votes on its references. */
export type ReaderFeedback = { rating: Rating; references: ReferenceVotes };

/** What a message is shown with besides its row, loaded for a whole page of messages at once. */
export type MessageParts = {
  topic: Pick<Topic, 'id' | 'topicTitle' | 'createdAt'>;
  access: TopicAccess;
  author: User | null;
  bot: Pick<Bot, 'id' | 'botName' | 'icon'> | null;
  files: MessageFile[];
  /** The reader's own feedback on this answer. */
  feedback: ReaderFeedback | null;
  isReadable: (mention: DocumentMention) => boolean;
  /** Read through a public link: no emails, debug logs, files or feedback. */
  publicView: boolean;
  /** The reader may see debug logs (server/policies/debug-logs): never through a public link. */
  showDebugLogs: boolean;
};

/** A message row as the topic page, the chat history and the public page show it (common/api/messages.ts). */
export function presentMessage(row: Message, parts: MessageParts): ChatMessage {
  const { publicView } = parts;
  const extra = messageExtraDataSchema.safeParse(row.extraData);
  // feedback is per reader (never another member's rating stored on the row), and the recorded sources only decide the view
  const {
    messageFeedback: _stored,
    [BUILT_FROM_KEY]: _builtFrom,
    ...extraData
  } = extra.success ? extra.data : {};
  const debugLogs = parts.showDebugLogs && !publicView ? storedDebugLogs(row) : null;
  const author = row.sender === 'USER' ? parts.author : null;
  const view = answerView(row, parts.isReadable);
  const { references } = view;
  return {
    row_id: row.rowId,
    message_id: row.id,
    conversation_id: row.topicId,
    conversation_timestamp: parts.topic.createdAt.toISOString(),
    topic_title: parts.topic.topicTitle,
    topicAccess: parts.access,
    sender: row.sender,
    messageText: view.messageText,
    messageEncoding: 'PLAIN_TEXT',
    messageType: row.messageType ?? null,
    tsSentAt: (row.tsSentAt ?? row.createdAt).toISOString(),
    author: author
      ? {
          email: publicView ? null : author.email,
          display_name: publicView ? memberNameOf(author) : displayNameOf(author),
          icon: author.photoUrl ?? null,
        }
      : null,
    bot_id: parts.bot?.id ?? row.botId ?? null,
    bot_name: parts.bot?.botName ?? null,
    bot_icon: parts.bot?.icon ?? null,
    reply_to_id: row.replyToId ?? null,
    references,
    allReferencesSummary: view.allReferencesSummary,
    relatedSearches: view.relatedSearches,
    debugLogs: debugLogs && { ...debugLogs, doc_data: debugLogs.doc_data.filter(parts.isReadable) },
    files: publicView ? [] : parts.files,
    extraData: {
      ...extraData,
      ...(parts.feedback !== null && !publicView
        ? { messageFeedback: presentReaderFeedback(parts.feedback, references) }
        : {}),
    },
    skillRetrieved: view.skillRetrieved,
    deepresearch: row.deepresearch,
    status: row.status,
    isQueryAccepted: row.isQueryAccepted ?? null,
    isPreFinalGeneration: row.status === 'PENDING' && row.messageText.length > 0 && !view.withheld,
    progressBar: row.progressBar === null ? null : Math.min(100, Math.max(0, Math.round(row.progressBar))),
  };
}

/** Votes only on the references the reader is shown, so a vote cannot name a document they may no longer read. */
function presentReaderFeedback(
  feedback: ReaderFeedback,
  shown: readonly Reference[],
): { rating: Rating; references_feedback: ReferenceVotes } {
  const votes: ReferenceVotes = {};
  for (const reference of shown) {
    const vote = feedback.references[reference.id];
    if (vote !== undefined) votes[reference.id] = vote;
  }
  return { rating: feedback.rating, references_feedback: votes };
}
