// The conversation view's list (spec asking-questions §2 Conversation view): the server's messages and this tab's
// live questions merged, grouped by topic, oldest first.
import type { ChatMessage, TopicAccess } from '../../common/api/messages';
import {
  DEEP_RESEARCH_PENDING_RECONNECTABLE_MAX_AGE_MS,
  PENDING_RECONNECTABLE_MAX_AGE_MS,
} from '../../common/limits';
import type { Exchange } from './answer-state';

export type ViewItem = {
  message: ChatMessage;
  /** Present for answers this tab is following or has followed: stage, progress and stop belong to it. */
  exchange?: Exchange;
};

export type TopicGroup = {
  conversationId: string;
  title: string;
  /** ISO-8601: when the topic started. */
  timestamp: string;
  items: ViewItem[];
};

/**
 * Server messages (oldest first) and live exchanges: a live exchange replaces the server's copy of its two
 * messages, and exchanges the server does not list yet come after everything it does.
 */
export function mergeMessages(server: readonly ChatMessage[], live: readonly Exchange[]): ViewItem[] {
  const liveIds = new Map<string, Exchange>();
  for (const exchange of live) {
    liveIds.set(exchange.key, exchange);
    liveIds.set(exchange.question.message_id, exchange);
    liveIds.set(exchange.answer.message_id, exchange);
  }
  const shown = new Set<string>();
  const items: ViewItem[] = [];
  const pushExchange = (exchange: Exchange) => {
    if (shown.has(exchange.key)) return;
    shown.add(exchange.key);
    items.push({ message: exchange.question }, { message: exchange.answer, exchange });
  };
  for (const message of server) {
    const exchange = liveIds.get(message.message_id);
    if (exchange) pushExchange(exchange);
    else items.push({ message });
  }
  for (const exchange of live) pushExchange(exchange);
  return items;
}

/** Consecutive messages of one topic form a group; its title is the latest one known (or a rename). */
export function groupByTopic(
  items: readonly ViewItem[],
  titles: Readonly<Record<string, string>> = {},
): TopicGroup[] {
  const groups: TopicGroup[] = [];
  for (const item of items) {
    const id = item.message.conversation_id;
    const last = groups.at(-1);
    if (last && last.conversationId === id) last.items.push(item);
    else {
      groups.push({
        conversationId: id,
        title: '',
        timestamp: item.message.conversation_timestamp,
        items: [item],
      });
    }
  }
  for (const group of groups) {
    const known = group.items.map((item) => item.message.topic_title).filter(Boolean);
    group.title = titles[group.conversationId] ?? known.at(-1) ?? '';
  }
  return groups;
}

/**
 * A topic's access as the server last listed it: the newest message the server sent (a live answer carries only the
 * defaults it was made with).
 */
export function accessOfGroup(group: Pick<TopicGroup, 'items'>): TopicAccess {
  const live = new Set(group.items.flatMap((item) => (item.exchange ? [item.exchange.question] : [])));
  const listed = group.items.filter((item) => !item.exchange && !live.has(item.message));
  return (
    (listed.at(-1) ?? group.items.at(-1))?.message.topicAccess ?? {
      isMultiplayer: false,
      isOrgWide: false,
      isPublic: false,
    }
  );
}

/** The topic a question continues on /chat: the latest one shown. */
export function latestConversation(items: readonly ViewItem[]): { id: string; title: string } | null {
  for (let index = items.length - 1; index >= 0; index--) {
    const message = items[index]!.message;
    if (message.conversation_id) return { id: message.conversation_id, title: message.topic_title };
  }
  return null;
}

/**
 * Spec §4 Reconnect: pending answers with no active stream, young enough to follow again (5 minutes, 15 for deep
 * research), paired with the question they answer.
 */
export function reconnectableAnswers(
  messages: readonly ChatMessage[],
  following: ReadonlySet<string>,
  now: number,
): { question: ChatMessage; answer: ChatMessage }[] {
  const byId = new Map(messages.map((message) => [message.message_id, message]));
  const found: { question: ChatMessage; answer: ChatMessage }[] = [];
  for (const answer of messages) {
    if (answer.sender !== 'ASSISTANT' || answer.status !== 'PENDING' || !answer.reply_to_id) continue;
    const question = byId.get(answer.reply_to_id);
    if (!question || following.has(question.message_id) || following.has(answer.message_id)) continue;
    const maxAge = answer.deepresearch
      ? DEEP_RESEARCH_PENDING_RECONNECTABLE_MAX_AGE_MS
      : PENDING_RECONNECTABLE_MAX_AGE_MS;
    if (now - new Date(question.tsSentAt).getTime() < maxAge) found.push({ question, answer });
  }
  return found;
}
