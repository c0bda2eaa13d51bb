/**
 * Following and stopping answers: STOP_GENERATION (here or on another instance, through the answer's row) and
 * RECONNECT, which replays a saved answer or follows a live one, in this process or, by polling its row, in another.
 */
import { type ChatStage, type ReconnectMessage, type ServerMessage } from '../../common/api/chat';
import type { AllReferencesSummary, Reference, SkillRetrieved } from '../../common/api/messages';
import { topicMessages } from '../../common/api/topics';
import { chat as chatStrings } from '../../common/strings';
import type { Viewer } from '../context';
import { type Message } from '../db/schema';
import type { Db } from '../db/store';
import { viewerReadsDebugLogs } from '../policies/debug-logs';
import { canViewTopic } from '../policies/topics';
import { answerSources, answerView, readableDocuments, type AnswerView } from '../presenters/message';
import { principalsFor } from '../search';
import { loadTopic } from '../topics/access';
import { stoppedAnswer } from './answer';
import type { Generation } from './generations';
import { failOrphanAnswer, stageLabel, type Listener } from './generations';
import {
  finalizeAnswer,
  findAnswerTo,
  findMessage,
  findTopic,
  recordStopRequest,
  stopRequestedAnswers,
} from './rows';
import { ChatRefusal, type ChatDeps } from './settings';

/** STOP_GENERATION: only the asker may stop their answer. Answers the generation stopped, or null. */
export function stopGeneration(
  deps: ChatDeps,
  viewer: Viewer,
  generation: Generation | undefined,
): Generation | null {
  if (!generation || generation.finished || generation.ids.userId !== viewer.userId) return null;
  if (generation.ids.orgId !== viewer.orgId) return null;
  generation.abort('stopped');
  return generation;
}

/**
 * STOP_GENERATION for an answer (or its question) that may be written by another `scout serve` instance on the same
 * store. The request is recorded on the answer's row, where the writing instance's watchStopRequests finds it within
 * stopPollMs: polling the store works the same on PGlite and a PostgreSQL server, needs no connection held open for
 * LISTEN, and costs one primary-key query per interval per instance with answers in progress. An answer whose
 * writer died (not updated for staleAfterMs) is finalised here. Only the asker may stop it. Answers whether there
 * was an answer to stop.
 */
export async function requestStop(deps: ChatDeps, viewer: Viewer, messageId: string): Promise<boolean> {
  const { db } = deps.store;
  const found = await findMessage(db, viewer.orgId, messageId);
  const answer = found?.sender === 'USER' ? await findAnswerTo(db, viewer.orgId, found.id) : found;
  if (!answer || answer.status !== 'PENDING' || !answer.replyToId) return false;
  const live = deps.registry.find(answer.id);
  if (live) return stopGeneration(deps, viewer, live) !== null;
  const query = await findMessage(db, viewer.orgId, answer.replyToId);
  if (query?.authorId !== viewer.userId) return false;
  if (Date.now() - answer.updatedAt.getTime() < deps.settings.staleAfterMs) {
    return recordStopRequest(db, viewer.orgId, answer.id);
  }
  return finalizeAnswer(
    db,
    { orgId: answer.orgId, answerId: answer.id, queryId: answer.replyToId, topicId: answer.topicId },
    stoppedAnswer(answer.messageText, []),
  );
}

/** Aborts this process's answers that another instance was asked to stop (requestStop). Returns the stopper. */
export function watchStopRequests(deps: ChatDeps): () => void {
  let checking = false;
  const check = async () => {
    const live = deps.registry.all();
    if (checking || live.length === 0) return;
    checking = true;
    try {
      const stopped = await stopRequestedAnswers(
        deps.store.db,
        live.map((generation) => ({ orgId: generation.ids.orgId, answerId: generation.ids.answerId })),
      );
      for (const generation of live) if (stopped.has(generation.ids.answerId)) generation.abort('stopped');
    } catch (error) {
      deps.log.warn({ err: error }, 'reading stop requests failed');
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), deps.settings.stopPollMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The messages that replay a saved answer: its text as one CHUNK (unless already sent), then how it ended. */
async function replaySaved(deps: ChatDeps, answer: Message, send: Listener, textSent = ''): Promise<void> {
  const topic = await findTopic(deps.store.db, answer.orgId, answer.topicId);
  const rest = answer.messageText.startsWith(textSent) ? answer.messageText.slice(textSent.length) : '';
  if (rest && answer.status !== 'FAILED') {
    // the client ignores chunks until streaming has started (spec)
    if (!textSent) {
      send({
        type: 'SET_STAGE',
        stage: 'STREAMING_ANSWER',
        label: stageLabel('STREAMING_ANSWER', answer.deepresearch),
      });
    }
    send({ type: 'CHUNK', text: rest });
  }
  if (answer.status === 'SUCCESS') {
    send({
      type: 'ANSWER_COMPLETE',
      conversation_id: answer.topicId,
      message_id: answer.id,
      row_id: answer.rowId,
      status: 'SUCCESS',
      messageText: answer.messageText,
      references: answer.references as unknown as Reference[],
      allReferencesSummary: (answer.allReferencesSummary as AllReferencesSummary | null) ?? {
        app_references_count: [],
        app_names: [],
      },
      relatedSearches: answer.relatedSearches.filter((value): value is string => typeof value === 'string'),
      skillRetrieved: (answer.skillRetrieved as SkillRetrieved[] | null) ?? [],
      topic_title: topic?.topicTitle ?? '',
      llm: answer.llm ?? 'extractive',
      deepresearch: answer.deepresearch,
    });
  } else if (answer.status === 'FAILED') {
    send({
      type: 'ERROR',
      code: 'GENERATION_FAILED',
      message: chatStrings.GENERATION_FAILED,
      message_id: answer.id,
    });
  }
  send({
    type: 'ANSWER_SAVED',
    conversation_id: answer.topicId,
    message_id: answer.id,
    status: answer.status,
  });
}

/**
 * The viewer's view of an answer as it stands (its text withheld unless they may read every source it was built
 * from, which is recorded before any of its text is said), or null when there is no such answer in their org.
 */
export async function answerViewFor(db: Db, viewer: Viewer, answerId: string): Promise<AnswerView | null> {
  const row = await findMessage(db, viewer.orgId, answerId);
  if (!row) return null;
  const reader = { orgId: viewer.orgId, principals: await principalsFor(db, viewer.orgId, viewer.email) };
  return answerView(row, await readableDocuments(db, reader, answerSources(row)));
}

/**
 * What a RECONNECT shows its viewer of an answer, live or saved: answerView decides, from the documents the answer
 * was built from (recorded before any text or count is said), whether its text, counts and suggestions reach this
 * viewer; if not, one CHUNK says it is hidden and ANSWER_COMPLETE carries the viewer's view. Messages are passed on
 * in order.
 */
function viewerListener(deps: ChatDeps, viewer: Viewer, answerId: string, send: Listener): Listener {
  const { db } = deps.store;
  const viewOf = () => answerViewFor(db, viewer, answerId);
  let withheld: Promise<boolean> | null = null;
  // the asker's debug logs reach another viewer only if that viewer may read debug logs too
  let showsDebugLogs: Promise<boolean> | null = null;
  let noticeSent = false;
  let chain = Promise.resolve();
  const pass = async (message: ServerMessage) => {
    if (message.type === 'DEBUG_LOGS' && !(await (showsDebugLogs ??= viewerReadsDebugLogs(db, viewer))))
      return;
    switch (message.type) {
      case 'CHUNK':
      case 'SKILL_RETRIEVED':
      case 'RELATED_SEARCHES':
      case 'DEBUG_LOGS':
        withheld ??= viewOf().then((view) => view?.withheld ?? true);
        if (!(await withheld)) {
          send(message);
        } else if (message.type === 'CHUNK' && !noticeSent) {
          noticeSent = true;
          send({ type: 'CHUNK', text: chatStrings.ANSWER_WITHHELD });
        }
        return;
      case 'ANSWER_COMPLETE': {
        const view = await viewOf();
        if (!view) return;
        send({
          ...message,
          messageText: view.messageText,
          references: view.references,
          allReferencesSummary: view.allReferencesSummary ?? { app_references_count: [], app_names: [] },
          relatedSearches: view.relatedSearches,
          skillRetrieved: view.skillRetrieved ?? [],
        });
        return;
      }
      default:
        send(message);
    }
  };
  return (message) => {
    chain = chain
      .then(() => pass(message))
      .catch((error: unknown) =>
        deps.log.warn({ err: error }, 'showing an answer to a reconnected reader failed'),
      );
  };
}

/** Whoever may read the topic may follow its answers; to anyone else the message does not exist. */
async function requireFollow(deps: ChatDeps, viewer: Viewer, topicId: string): Promise<void> {
  const loaded = await loadTopic(deps.store.db, viewer, topicId);
  if (!loaded || !canViewTopic(loaded.topic, loaded.relation)) {
    throw new ChatRefusal('NOT_FOUND', topicMessages.MESSAGE_NOT_FOUND);
  }
}

export type ReconnectResult =
  /** Attached to an answer being written in this process, through `listener` (detach it when the socket goes). */
  | { kind: 'live'; generation: Generation; listener: Listener }
  /** The saved answer was sent. */
  | { kind: 'saved' }
  /** Following the answer `answerId` another process writes; call `stop` when the socket goes. */
  | { kind: 'following'; answerId: string; stop: () => void };

/**
 * RECONNECT {message_id} (the user message or its answer): re-attach to the live answer, send the saved one, or, if
 * the process writing it died (PENDING, not updated for staleAfterMs), finalise it FAILED and say so.
 */
export async function reconnect(
  deps: ChatDeps,
  viewer: Viewer,
  message: ReconnectMessage,
  send: Listener,
): Promise<ReconnectResult> {
  const live = deps.registry.find(message.message_id);
  if (live && !live.finished && live.ids.orgId === viewer.orgId) {
    await requireFollow(deps, viewer, live.ids.topicId);
    const listener = viewerListener(deps, viewer, live.ids.answerId, send);
    live.attach(listener);
    return { kind: 'live', generation: live, listener };
  }
  const found = await findMessage(deps.store.db, viewer.orgId, message.message_id);
  if (!found) throw new ChatRefusal('NOT_FOUND', topicMessages.MESSAGE_NOT_FOUND);
  await requireFollow(deps, viewer, found.topicId);
  const answer = found.sender === 'USER' ? await findAnswerTo(deps.store.db, viewer.orgId, found.id) : found;
  if (!answer) throw new ChatRefusal('NOT_FOUND', 'This message has no answer.');
  const listener = viewerListener(deps, viewer, answer.id, send);
  // It may have finished between the registry lookup and the read.
  const again = deps.registry.find(answer.id);
  if (again && !again.finished) {
    again.attach(listener);
    return { kind: 'live', generation: again, listener };
  }
  if (answer.status !== 'PENDING') {
    await replaySaved(deps, answer, listener);
    return { kind: 'saved' };
  }
  if (await finalizeIfStale(deps, answer)) {
    const saved = await findMessage(deps.store.db, viewer.orgId, answer.id);
    await replaySaved(deps, saved ?? answer, listener);
    return { kind: 'saved' };
  }
  return { kind: 'following', answerId: answer.id, stop: followStored(deps, answer, listener) };
}

async function finalizeIfStale(deps: ChatDeps, answer: Message): Promise<boolean> {
  if (Date.now() - answer.updatedAt.getTime() < deps.settings.staleAfterMs) return false;
  await failOrphanAnswer(deps.store.db, answer);
  return true;
}

/**
 * Follows an answer written by another process through its row: new text as CHUNKs (after STREAMING_ANSWER, as the
 * client ignores chunks before it), the stage again when nothing changed for stageRepeatMs, then how it ended.
 */
function followStored(deps: ChatDeps, answer: Message, send: Listener): () => void {
  let stopped = false;
  let sent = '';
  let stage: ChatStage = 'RECONNECTING';
  let lastSentAt = 0;
  const say = (message: ServerMessage) => {
    lastSentAt = Date.now();
    send(message);
  };
  const sayStage = (row: Message) =>
    say({
      type: 'SET_STAGE',
      stage,
      label: stageLabel(stage, row.deepresearch),
      ...(row.deepresearch && row.progressBar !== null ? { progressBar: row.progressBar } : {}),
    });
  const catchUp = (row: Message) => {
    if (row.messageText.startsWith(sent) && row.messageText.length > sent.length) {
      if (stage !== 'STREAMING_ANSWER') {
        stage = 'STREAMING_ANSWER';
        sayStage(row);
      }
      say({ type: 'CHUNK', text: row.messageText.slice(sent.length) });
      sent = row.messageText;
    } else if (Date.now() - lastSentAt >= deps.settings.stageRepeatMs) {
      sayStage(row);
    }
  };
  sayStage(answer);
  catchUp(answer);
  const poll = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, deps.settings.followPollMs));
      if (stopped) return;
      const row = await findMessage(deps.store.db, answer.orgId, answer.id);
      if (!row) return;
      if (row.status === 'PENDING') {
        catchUp(row);
        if (await finalizeIfStale(deps, row)) {
          const saved = await findMessage(deps.store.db, answer.orgId, answer.id);
          if (saved) await replaySaved(deps, saved, send, sent);
          return;
        }
        continue;
      }
      await replaySaved(deps, row, send, sent);
      return;
    }
  };
  poll().catch((error: unknown) => deps.log.warn({ err: error }, 'following a stored answer failed'));
  return () => {
    stopped = true;
  };
}
