// 'New topic' (spec asking-questions §4, §8; shell-and-account §2.8): the screen clears at once and the next
// question starts a new topic, which then fills the screen as it is asked and answered; pressed again before anything
// is asked, it gives the previous topic back ('Resume previous topic'). Until then the conversation shows only what
// was asked since.
import { useCallback, useMemo, useState } from 'react';
import type { Exchange } from './answer-state';
import type { ViewItem } from './conversation';

/** The messages asked since the screen was cleared: their exchanges, and anything else of the topics they went to. */
export function itemsSince(
  items: readonly ViewItem[],
  live: readonly Exchange[],
  onScreenBefore: ReadonlySet<string>,
): ViewItem[] {
  const newer = live.filter((exchange) => !onScreenBefore.has(exchange.key));
  const ids = new Set(
    newer.flatMap((exchange) => [exchange.question.message_id, exchange.answer.message_id]),
  );
  const topics = new Set(newer.map((exchange) => exchange.answer.conversation_id).filter((id) => id !== ''));
  return items.filter((item) => ids.has(item.message.message_id) || topics.has(item.message.conversation_id));
}

export type NewTopicView = {
  /** The items to show: all of them, or only those asked since 'New topic'. */
  items: readonly ViewItem[];
  /** The screen was cleared by 'New topic': only what is asked since is shown. */
  cleared: boolean;
  /** 'New topic' is on and nothing is asked yet: the screen is empty, the next question starts a topic. */
  pressed: boolean;
  start(): void;
  resume(): void;
};

/** `startCleared`: the screen opens already cleared (New topic pressed on another screen). */
export function useNewTopic(
  items: readonly ViewItem[],
  live: readonly Exchange[],
  startCleared: boolean,
): NewTopicView {
  const [onScreenBefore, setOnScreenBefore] = useState<ReadonlySet<string> | null>(() =>
    startCleared ? new Set(live.map((exchange) => exchange.key)) : null,
  );
  const shown = useMemo(
    () => (onScreenBefore ? itemsSince(items, live, onScreenBefore) : items),
    [items, live, onScreenBefore],
  );
  const start = useCallback(() => setOnScreenBefore(new Set(live.map((exchange) => exchange.key))), [live]);
  const resume = useCallback(() => setOnScreenBefore(null), []);
  const cleared = onScreenBefore !== null;
  return { items: shown, cleared, pressed: cleared && shown.length === 0, start, resume };
}

/** The address state of /chat opened by 'New topic' on another screen (a topic's page): it opens cleared. */
export const NEW_TOPIC_STATE = { newTopic: true } as const;

export function opensCleared(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { newTopic?: unknown }).newTopic === true;
}
