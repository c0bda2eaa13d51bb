/**
 * Answers being written in this process. A generation outlives the socket that asked for it (a dropped socket must
 * not lose the answer): sockets attach to it as listeners, and RECONNECT attaches a new one, which first gets the
 * current stage and the text so far as one CHUNK.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { ChatStage, ServerMessage } from '../../common/api/chat';
import { STAGE_LABELS } from '../../common/api/chat';
import type { DebugStage } from '../../common/api/messages';
import { DEBUG_STAGES_MAX, PROGRESS_BAR_START } from '../../common/limits';
import { chat as chatStrings } from '../../common/strings';
import { messages, type Message } from '../db/schema';
import type { Db } from '../db/store';
import { finalizeAnswer } from './rows';

export type Listener = (message: ServerMessage) => void;

/** Why a generation's work was aborted. */
export type AbortReason = 'stopped' | 'shutdown';

export class Generation {
  stage: ChatStage = 'SENDING_REQUEST';
  progressBar: number | null;
  text = '';
  /** The model's (or extractive answerer's) text has started to arrive. */
  streaming = false;
  finished = false;
  abortReason: AbortReason | null = null;
  readonly controller = new AbortController();
  readonly startedAt = Date.now();
  readonly stages: DebugStage[] = [];
  /** Resolves once the answer's row is final. */
  settled: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<Listener>();
  private lastEmitAt = Date.now();
  private readonly keepalive: NodeJS.Timeout;

  /**
   * `stageRepeatMs`: while nothing else is said for this long (slow retrieval, a model slow to its first token),
   * the current stage is said again, so neither the client's inactivity time-out (spec: 15 s, 35 s for deep
   * research) nor an idle-closing proxy takes a working answer for a dead one.
   */
  constructor(
    readonly ids: {
      answerId: string;
      answerRowId: number;
      queryId: string;
      queryRowId: number;
      topicId: string;
      orgId: string;
      userId: string;
    },
    readonly deepresearch: boolean,
    stageRepeatMs: number,
  ) {
    this.progressBar = deepresearch ? PROGRESS_BAR_START : null;
    this.keepalive = setInterval(
      () => {
        if (Date.now() - this.lastEmitAt >= stageRepeatMs) this.send(this.currentStage());
      },
      Math.max(1, Math.floor(stageRepeatMs / 2)),
    );
    this.keepalive.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sends to every attached socket, keeping the state a late listener needs. */
  emit(message: ServerMessage): void {
    if (message.type === 'SET_STAGE') {
      this.stage = message.stage;
      if (message.progressBar != null) this.progressBar = message.progressBar;
      if (this.stages.length < DEBUG_STAGES_MAX) {
        this.stages.push({
          stage: message.stage,
          at_ms: Date.now() - this.startedAt,
          ...(message.detail ? { detail: message.detail } : {}),
        });
      }
    } else if (message.type === 'CHUNK') {
      this.text += message.text;
    }
    this.send(message);
  }

  private send(message: ServerMessage): void {
    this.lastEmitAt = Date.now();
    for (const listener of this.listeners) listener(message);
  }

  setStage(stage: ChatStage, extra: { progressBar?: number; detail?: string } = {}): void {
    this.emit({ type: 'SET_STAGE', stage, label: stageLabel(stage, this.deepresearch), ...extra });
  }

  private currentStage(): ServerMessage {
    return {
      type: 'SET_STAGE',
      stage: this.stage,
      label: stageLabel(this.stage, this.deepresearch),
      progressBar: this.progressBar,
    };
  }

  /** Attaches a socket: it gets the current stage and everything said so far, then what follows. */
  attach(listener: Listener): void {
    listener(this.currentStage());
    if (this.text) listener({ type: 'CHUNK', text: this.text });
    this.listeners.add(listener);
  }

  /** Adds a listener that has seen everything so far (the socket that asked). */
  listen(listener: Listener): void {
    this.listeners.add(listener);
  }

  detach(listener: Listener): void {
    this.listeners.delete(listener);
  }

  abort(reason: AbortReason): void {
    if (this.finished || this.abortReason) return;
    this.abortReason = reason;
    this.controller.abort(new Error(`generation ${reason}`));
  }

  /** The answer's row is final: nothing more will be said. */
  finish(): void {
    this.finished = true;
    clearInterval(this.keepalive);
  }
}

/** Deep research shows 'Researching...' until the report streams. */
export function stageLabel(stage: ChatStage, deepresearch: boolean): string | null {
  return deepresearch && stage !== 'STREAMING_ANSWER' ? chatStrings.RESEARCHING : STAGE_LABELS[stage];
}

/** The live generations of this process, by answer, by user message and by topic. */
export class GenerationRegistry {
  private readonly byMessage = new Map<string, Generation>();
  private readonly byTopic = new Map<string, Generation>();
  /** Topics a QUERY is being accepted for (between the busy check and the generation's registration). */
  private readonly reserved = new Set<string>();

  add(generation: Generation): void {
    this.byMessage.set(generation.ids.answerId, generation);
    this.byMessage.set(generation.ids.queryId, generation);
    this.byTopic.set(generation.ids.topicId, generation);
  }

  remove(generation: Generation): void {
    for (const key of [generation.ids.answerId, generation.ids.queryId]) {
      if (this.byMessage.get(key) === generation) this.byMessage.delete(key);
    }
    if (this.byTopic.get(generation.ids.topicId) === generation) this.byTopic.delete(generation.ids.topicId);
  }

  /** By the answer's or the user message's id. */
  find(messageId: string): Generation | undefined {
    return this.byMessage.get(messageId);
  }

  topicBusy(topicId: string): boolean {
    return this.byTopic.has(topicId) || this.reserved.has(topicId);
  }

  /** Claims a topic for a QUERY being accepted; false when it is already busy. */
  reserve(topicId: string): boolean {
    if (this.topicBusy(topicId)) return false;
    this.reserved.add(topicId);
    return true;
  }

  release(topicId: string): void {
    this.reserved.delete(topicId);
  }

  all(): Generation[] {
    return [...new Set(this.byTopic.values())];
  }
}

/**
 * Finalises an answer whose process died FAILED, with the spec's saved-failure text, so the client shows its error
 * instead of waiting. Answers whether this call finalised it (another process may have got there first).
 */
export function failOrphanAnswer(db: Db, answer: Message): Promise<boolean> {
  return finalizeAnswer(
    db,
    {
      orgId: answer.orgId,
      answerId: answer.id,
      queryId: answer.replyToId ?? answer.id,
      topicId: answer.topicId,
    },
    {
      status: 'FAILED',
      messageText: chatStrings.GENERATION_FAILED,
      extraData: { staticAnswerType: 'failed' },
    },
  );
}

/**
 * Fails every answer still PENDING whose row was last touched before `updatedBefore`: a live answer touches its
 * row every few seconds (AnswerWriter's keepalive), so these belong to processes that died. Answers how many.
 */
export async function failOrphanAnswers(db: Db, updatedBefore: Date): Promise<number> {
  const orphans = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.sender, 'ASSISTANT'),
        eq(messages.status, 'PENDING'),
        lt(messages.updatedAt, updatedBefore),
      ),
    );
  let failed = 0;
  for (const answer of orphans) if (await failOrphanAnswer(db, answer)) failed++;
  return failed;
}
