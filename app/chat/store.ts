// The questions asked in this tab and their answers as they stream, kept outside React so an answer goes on while
// the user moves between /chat and /topic/{id}. The screens merge these with the messages the server lists.
import { useSyncExternalStore } from 'react';
import type { ChatErrorCode, QuerySources } from '../../common/api/chat';
import type { ChatMessage, MessageAuthor } from '../../common/api/messages';
import { FILE_NOT_INDEXED_CHUNKS } from '../../common/limits';
import {
  applyServerMessage,
  awaitingReplay,
  exchangeFor,
  isFinal,
  newExchange,
  stoppedExchange,
  withSavedAnswer,
  withStaticAnswer,
  type Exchange,
} from './answer-state';
import type { AttachedFile } from './attachments';
import { followAnswer, type AnswerStream } from './stream';

export type ExchangeHooks = {
  /** QUERY_ACCEPTED: the topic the question went to. */
  onAccepted?(conversationId: string, isNewTopic: boolean): void;
  /** Refused before anything was written; the question is taken out of the view. */
  onRefused?(query: string, code: ChatErrorCode, message: string): void;
  /** A stream failure to show (time-out, streaming error, tokens missing). */
  onFailure?(text: string): void;
  onTimeout?(): void;
  /** The answer reached its end (any status). */
  onFinished?(exchange: Exchange): void;
};

export type AskInput = {
  query: string;
  conversationId: string | null;
  isNewTopic: boolean;
  topicTitle: string;
  sources: QuerySources | null;
  llm: string | null;
  deepresearch: boolean;
  reconnect: boolean;
  author: MessageAuthor;
  /** Uploads attached to this question. */
  files: readonly AttachedFile[];
  /** Uploads of the topic it continues, which the answer may use too. */
  contextualFileIds: readonly string[];
  hooks?: ExchangeHooks;
};

let exchanges: readonly Exchange[] = [];
const streams = new Map<string, AnswerStream>();
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function find(key: string): Exchange | undefined {
  return exchanges.find((exchange) => exchange.key === key);
}

function update(key: string, change: (exchange: Exchange) => Exchange, hooks?: ExchangeHooks): void {
  const before = find(key);
  if (!before) return;
  const after = change(before);
  if (after === before) return;
  exchanges = exchanges.map((exchange) => (exchange.key === key ? after : exchange));
  emit();
  if (!isFinal(before) && isFinal(after)) hooks?.onFinished?.(after);
}

function remove(key: string): void {
  exchanges = exchanges.filter((exchange) => exchange.key !== key);
  streams.get(key)?.detach();
  streams.delete(key);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): readonly Exchange[] {
  return exchanges;
}

export function useExchanges(): readonly Exchange[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The answer being generated, if any: a new question is refused while there is one. */
export function activeExchange(list: readonly Exchange[] = exchanges): Exchange | undefined {
  return list.find((exchange) => !isFinal(exchange));
}

function follow(
  exchange: Exchange,
  start: Parameters<typeof followAnswer>[0]['start'],
  reconnect: boolean,
  hooks?: ExchangeHooks,
): void {
  const key = exchange.key;
  const stream = followAnswer({
    start,
    deepresearch: exchange.answer.deepresearch,
    reconnect,
    questionId: () => find(key)?.question.message_id ?? key,
    answerId: () => {
      const current = find(key);
      return current && current.answer.row_id >= 0 ? current.answer.message_id : null;
    },
    isFinal: () => {
      const current = find(key);
      return !current || isFinal(current);
    },
    onMessage: (message) => {
      update(key, (current) => applyServerMessage(current, message), hooks);
      if (message.type === 'QUERY_ACCEPTED') hooks?.onAccepted?.(message.conversation_id, message.isNewTopic);
    },
    onReplay: () => update(key, awaitingReplay, hooks),
    onSaved: (saved) => update(key, (current) => withSavedAnswer(current, saved), hooks),
    onFailure: (text) => {
      hooks?.onFailure?.(text);
      update(
        key,
        (current) => (isFinal(current) ? current : withStaticAnswer(current, 'FAILED', text, 'failed')),
        hooks,
      );
    },
    onRefused: (message) => {
      const current = find(key);
      remove(key);
      hooks?.onRefused?.(current?.question.messageText ?? '', message.code, message.message);
    },
    onTimeout: () => hooks?.onTimeout?.(),
  });
  streams.set(key, stream);
}

/** Sends a question. False when another answer is still being generated (the caller says so). */
export function ask(input: AskInput): boolean {
  if (activeExchange()) return false;
  const key = crypto.randomUUID();
  const exchange = newExchange({
    key,
    answerKey: `${key}:answer`,
    query: input.query,
    conversationId: input.isNewTopic ? null : input.conversationId,
    topicTitle: input.isNewTopic ? '' : input.topicTitle,
    author: input.author,
    deepresearch: input.deepresearch,
    files: input.files.map((file) => ({
      id: file.id,
      title: file.name,
      total_chunks: FILE_NOT_INDEXED_CHUNKS,
    })),
    now: new Date(),
  });
  exchanges = [...exchanges, exchange];
  emit();
  follow(
    exchange,
    {
      type: 'QUERY',
      message: {
        query: input.query,
        message_id: key,
        conversation_id: input.isNewTopic ? null : input.conversationId,
        isNewTopic: input.isNewTopic || !input.conversationId,
        sources: input.sources,
        llm_preference: input.llm,
        tz_offset: -new Date().getTimezoneOffset(),
        uploaded_conversation_file_ids: input.files.map((file) => file.id),
        all_contextual_files: [...input.contextualFileIds],
        deepresearch: input.deepresearch,
      },
    },
    input.reconnect,
    input.hooks,
  );
  return true;
}

/** Stop: the view ends the answer at once; the socket lingers only to pick up what the server saved. */
export function stop(key: string): void {
  const stream = streams.get(key);
  update(key, stoppedExchange);
  stream?.stop();
}

/** A pending answer from the history that nothing in this tab follows: RECONNECT to it. */
export function reconnectPending(question: ChatMessage, answer: ChatMessage, hooks?: ExchangeHooks): void {
  if (find(question.message_id) || activeExchange()) return;
  const exchange = exchangeFor(question, answer);
  exchanges = [...exchanges, exchange];
  emit();
  follow(exchange, { type: 'RECONNECT', messageId: question.message_id }, true, hooks);
}

/** A deleted topic's questions leave the view. */
export function forgetConversation(conversationId: string): void {
  for (const exchange of exchanges) {
    if (exchange.answer.conversation_id === conversationId) remove(exchange.key);
  }
}
