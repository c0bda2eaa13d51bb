/**
 * The store side of an answer: the topic, the user message and the answer's row are written together when a
 * question is accepted (so RECONNECT and `GET /messages/message/{id}` always find the answer), the text is saved as
 * it streams (throttled), and the row is finalised once, from PENDING only.
 */
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type {
  AllReferencesSummary,
  DebugLogs,
  MessageExtraData,
  MessageStatus,
  Reference,
  SkillRetrieved,
} from '../../common/api/messages';
import { newId } from '../db/ids';
import {
  messageFiles,
  messages,
  topicMembers,
  topics,
  uploads,
  type JsonObject,
  type Message,
  type Topic,
} from '../db/schema';
import type { Db, DbOrTx } from '../db/store';
import {
  answerSources,
  answerView,
  BUILT_FROM_KEY,
  readableDocuments,
  type BuiltFrom,
  type ReferenceReader,
} from '../presenters/message';
import type { HistoryTurn } from './prompt';

export async function findTopic(db: DbOrTx, orgId: string, topicId: string): Promise<Topic | null> {
  const [topic] = await db
    .select()
    .from(topics)
    .where(and(eq(topics.orgId, orgId), eq(topics.id, topicId)))
    .limit(1);
  return topic ?? null;
}

export async function findMessage(db: DbOrTx, orgId: string, messageId: string): Promise<Message | null> {
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.orgId, orgId), eq(messages.id, messageId)))
    .limit(1);
  return message ?? null;
}

export async function findAnswerTo(db: DbOrTx, orgId: string, queryId: string): Promise<Message | null> {
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.orgId, orgId), eq(messages.replyToId, queryId), eq(messages.sender, 'ASSISTANT')))
    .orderBy(desc(messages.rowId))
    .limit(1);
  return message ?? null;
}

export type Exchange = { topic: Topic; query: Message; answer: Message; isNewTopic: boolean };

export type ExchangeInput = {
  orgId: string;
  userId: string;
  /** An existing topic to continue, or null to start one (with `newTopicId` when the client chose the id). */
  topic: Topic | null;
  newTopicId: string | null;
  queryId: string | null;
  question: string;
  botId: string | null;
  deepresearch: boolean;
  llm: string;
  attachedUploadIds: readonly string[];
  /** Marks a research request refused by the rate limit, so it does not count against the next window. */
  rateLimited: boolean;
  now: Date;
  /** A PENDING answer of the topic updated after this is still being written (by this or another instance). */
  liveSince: Date;
};

/** The topic already has an answer being written. */
export class TopicBusyError extends Error {
  override name = 'TopicBusyError';
}

/** Writes the topic (when new), the user message and the answer's row in one transaction. */
export async function createExchange(db: Db, input: ExchangeInput): Promise<Exchange> {
  return db.transaction(async (tx) => {
    let topic = input.topic;
    const isNewTopic = topic === null;
    if (!topic) {
      const [created] = await tx
        .insert(topics)
        .values({
          id: input.newTopicId ?? newId(),
          orgId: input.orgId,
          authorId: input.userId,
          botId: input.botId,
          topicTitle: '',
        })
        .returning();
      topic = created!;
      await tx
        .insert(topicMembers)
        .values({ orgId: input.orgId, topicId: topic.id, userId: input.userId, role: 'CREATOR' });
    } else {
      // The row lock serialises questions to one topic across instances, so only one can find it idle.
      await tx
        .update(topics)
        .set({ updatedAt: input.now })
        .where(and(eq(topics.orgId, input.orgId), eq(topics.id, topic.id)));
      const [live] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.orgId, input.orgId),
            eq(messages.topicId, topic.id),
            eq(messages.sender, 'ASSISTANT'),
            eq(messages.status, 'PENDING'),
            gt(messages.updatedAt, input.liveSince),
          ),
        )
        .limit(1);
      if (live) throw new TopicBusyError();
    }
    const [query] = await tx
      .insert(messages)
      .values({
        id: input.queryId ?? newId(),
        orgId: input.orgId,
        topicId: topic.id,
        sender: 'USER',
        authorId: input.userId,
        botId: input.botId,
        messageText: input.question,
        status: 'PENDING',
        deepresearch: input.deepresearch,
        isQueryAccepted: true,
        tsSentAt: input.now,
        extraData: input.rateLimited ? { rateLimited: true } : {},
      })
      .returning();
    const [answer] = await tx
      .insert(messages)
      .values({
        orgId: input.orgId,
        topicId: topic.id,
        replyToId: query!.id,
        sender: 'ASSISTANT',
        botId: input.botId,
        status: 'PENDING',
        deepresearch: input.deepresearch,
        isQueryAccepted: true,
        progressBar: input.deepresearch ? 5 : null,
        llm: input.llm,
        tsSentAt: input.now,
        extraData: { llm: input.llm },
      })
      .returning();
    const attachable = await attachableUploads(tx, input.orgId, input.userId, input.attachedUploadIds);
    if (attachable.length > 0) {
      await tx
        .insert(messageFiles)
        .values(attachable.map((uploadId) => ({ orgId: input.orgId, messageId: query!.id, uploadId })))
        .onConflictDoNothing();
    }
    return { topic, query: query!, answer: answer!, isNewTopic };
  });
}

/** The listed uploads that are the asker's own: a message can only carry files its author uploaded. */
async function attachableUploads(
  db: DbOrTx,
  orgId: string,
  userId: string,
  ids: readonly string[],
): Promise<string[]> {
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (valid.length === 0) return [];
  const rows = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.orgId, orgId), eq(uploads.creatorId, userId), inArray(uploads.id, valid)));
  return rows.map((row) => row.id);
}

/**
 * The topic's conversation before a message, oldest first: finished turns only, each as `reader` may see it now
 * (presenters/message answerView). The model may repeat anything in its prompt, so an earlier answer drawn from a
 * source the asker cannot read (another member's, or one revoked since) reaches it withheld, like on every read path.
 */
export async function loadHistory(
  db: DbOrTx,
  reader: ReferenceReader,
  topicId: string,
  beforeRowId: number,
  turns: number,
): Promise<HistoryTurn[]> {
  const rows = await db
    .select({
      sender: messages.sender,
      messageText: messages.messageText,
      references: messages.references,
      allReferencesSummary: messages.allReferencesSummary,
      relatedSearches: messages.relatedSearches,
      skillRetrieved: messages.skillRetrieved,
      debugLogs: messages.debugLogs,
      extraData: messages.extraData,
      rowId: messages.rowId,
    })
    .from(messages)
    .where(
      and(
        eq(messages.orgId, reader.orgId),
        eq(messages.topicId, topicId),
        lt(messages.rowId, beforeRowId),
        eq(messages.status, 'SUCCESS'),
      ),
    )
    .orderBy(desc(messages.rowId))
    .limit(turns);
  const isReadable = await readableDocuments(db, reader, rows.flatMap(answerSources));
  return rows
    .sort((a, b) => a.rowId - b.rowId)
    .map((row) => ({ sender: row.sender, text: answerView(row, isReadable).messageText }))
    .filter((turn) => turn.text.trim());
}

/**
 * Records the documents an answer is built from before any of it is written, so what each reader may see of it
 * (presenters/message answerView) is known while it streams and after.
 */
export async function recordAnswerSources(
  db: DbOrTx,
  ids: { orgId: string; answerId: string },
  sources: BuiltFrom,
): Promise<void> {
  const builtFrom: BuiltFrom = sources.map(({ id, source }) => ({ id, source }));
  await db
    .update(messages)
    .set({
      extraData: sql`${messages.extraData} || ${JSON.stringify({ [BUILT_FROM_KEY]: builtFrom })}::jsonb`,
    })
    .where(and(eq(messages.orgId, ids.orgId), eq(messages.id, ids.answerId)));
}

export type FinalAnswer = {
  status: Exclude<MessageStatus, 'PENDING'>;
  messageText: string;
  references?: Reference[];
  allReferencesSummary?: AllReferencesSummary | null;
  relatedSearches?: string[];
  debugLogs?: DebugLogs | null;
  skillRetrieved?: SkillRetrieved[] | null;
  extraData?: MessageExtraData;
  progressBar?: number | null;
  /** Set on a new topic once the answer has a title for it. */
  topicTitle?: string | null;
};

/**
 * Finalises the answer and its user message, from PENDING only (so two finalisations cannot both win). Answers
 * whether this call was the one that finalised it.
 */
export async function finalizeAnswer(
  db: Db,
  ids: { orgId: string; answerId: string; queryId: string; topicId: string },
  final: FinalAnswer,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [answer] = await tx
      .update(messages)
      .set({
        status: final.status,
        messageText: final.messageText,
        references: (final.references ?? []) as unknown as JsonObject[],
        allReferencesSummary: (final.allReferencesSummary ?? null) as JsonObject | null,
        relatedSearches: final.relatedSearches ?? [],
        debugLogs: (final.debugLogs ?? null) as JsonObject | null,
        skillRetrieved: (final.skillRetrieved ?? null) as JsonObject[] | null,
        extraData: sql`${messages.extraData} || ${JSON.stringify(final.extraData ?? {})}::jsonb`,
        ...(final.progressBar !== undefined ? { progressBar: final.progressBar } : {}),
      })
      .where(
        and(eq(messages.orgId, ids.orgId), eq(messages.id, ids.answerId), eq(messages.status, 'PENDING')),
      )
      .returning({ id: messages.id });
    if (!answer) return false;
    await tx
      .update(messages)
      .set({ status: final.status })
      .where(
        and(eq(messages.orgId, ids.orgId), eq(messages.id, ids.queryId), eq(messages.status, 'PENDING')),
      );
    if (final.topicTitle) {
      await tx
        .update(topics)
        .set({ topicTitle: final.topicTitle })
        .where(and(eq(topics.orgId, ids.orgId), eq(topics.id, ids.topicId), eq(topics.topicTitle, '')));
    }
    return true;
  });
}

/**
 * Saves the streaming text at most every `intervalMs`, and touches the row every `keepaliveMs` when nothing was
 * written, so a reader can tell a live answer (recently updated) from one whose process died.
 */
export class AnswerWriter {
  private latest = '';
  private saved = '';
  private progress: number | null = null;
  private savedProgress: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly keepalive: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private lastWrite = Date.now();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly ids: { orgId: string; answerId: string },
    private readonly intervalMs: number,
    keepaliveMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.keepalive = setInterval(() => {
      if (Date.now() - this.lastWrite >= keepaliveMs) this.enqueue(true);
    }, keepaliveMs);
    this.keepalive.unref();
  }

  text(text: string): void {
    this.latest = text;
    this.schedule();
  }

  progressBar(value: number): void {
    this.progress = value;
    this.schedule();
  }

  /** Stops writing; resolves once any write in flight is done, so a final update cannot be overtaken. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.keepalive);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.enqueue(false);
    }, this.intervalMs);
  }

  private enqueue(touch: boolean): void {
    if (this.closed) return;
    this.chain = this.chain.then(() => this.write(touch));
  }

  private async write(touch: boolean): Promise<void> {
    const text = this.latest;
    const progress = this.progress;
    const changed = text !== this.saved || progress !== this.savedProgress;
    if (!changed && !touch) return;
    this.lastWrite = Date.now();
    try {
      await this.db
        .update(messages)
        .set({
          messageText: text,
          ...(progress !== null ? { progressBar: progress } : {}),
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(messages.orgId, this.ids.orgId),
            eq(messages.id, this.ids.answerId),
            eq(messages.status, 'PENDING'),
          ),
        );
      this.saved = text;
      this.savedProgress = progress;
    } catch (error) {
      this.log.warn({ err: error, messageId: this.ids.answerId }, 'saving a streaming answer failed');
    }
  }
}

/** Research requests of a member in the window, oldest first (rate-limited ones do not count). */
export async function recentResearchTimes(
  db: DbOrTx,
  orgId: string,
  userId: string,
  since: Date,
  limit: number,
): Promise<Date[]> {
  const rows = await db
    .select({ createdAt: messages.createdAt })
    .from(messages)
    .where(
      and(
        eq(messages.orgId, orgId),
        eq(messages.authorId, userId),
        eq(messages.sender, 'USER'),
        eq(messages.deepresearch, true),
        sql`${messages.createdAt} > ${since.toISOString()}::timestamptz`,
        sql`(${messages.extraData} ->> 'rateLimited') IS NULL`,
      ),
    )
    .orderBy(asc(messages.createdAt))
    .limit(limit);
  return rows.map((row) => row.createdAt);
}

/** Records a STOP_GENERATION for an answer still being written; false when it is already final. */
export async function recordStopRequest(db: Db, orgId: string, answerId: string): Promise<boolean> {
  const updated = await db
    .update(messages)
    .set({ cancelRequestedAt: new Date() })
    .where(and(eq(messages.orgId, orgId), eq(messages.id, answerId), eq(messages.status, 'PENDING')))
    .returning({ id: messages.id });
  return updated.length > 0;
}

/** Which of these answers someone asked to stop. */
export async function stopRequestedAnswers(
  db: DbOrTx,
  answers: readonly { orgId: string; answerId: string }[],
): Promise<Set<string>> {
  if (answers.length === 0) return new Set();
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        sql`(${messages.orgId}, ${messages.id}) IN (SELECT * FROM unnest(
          ${sql.param(answers.map((answer) => answer.orgId))}::uuid[],
          ${sql.param(answers.map((answer) => answer.answerId))}::uuid[]))`,
        isNotNull(messages.cancelRequestedAt),
      ),
    );
  return new Set(rows.map((row) => row.id));
}
