// An answer streaming in a shared topic, as the topic channel's answer.chunk events spell it, and the text to show
// for its message: the server's copy (read over REST, saved a moment behind) joined with the streamed text by offset,
// so nothing is repeated or lost whichever of the two is ahead.
import type { ChatMessage } from '../../common/api/messages';
import type { TopicEvent } from '../../common/api/realtime';

/** The streamed text from `start` (UTF-16 units into the answer) on. */
export type LiveText = { start: number; text: string };

/** The stream with one more chunk. A chunk after a gap (events were missed) starts the stream again there. */
export function appendChunk(
  stream: LiveText | undefined,
  chunk: Extract<TopicEvent, { type: 'answer.chunk' }>,
): LiveText {
  if (!stream || chunk.offset < stream.start || chunk.offset > stream.start + stream.text.length) {
    return { start: chunk.offset, text: chunk.text };
  }
  const kept = stream.text.slice(0, chunk.offset - stream.start);
  const joined = kept + chunk.text;
  return joined.length >= stream.text.length ? { start: stream.start, text: joined } : stream;
}

/**
 * The text to show for a pending answer: the server's, continued by the stream. `gap` when the stream starts past
 * the end of the server's text (read it again).
 */
export function liveTextOf(
  message: Pick<ChatMessage, 'messageText'>,
  stream: LiveText,
): { text: string; gap: boolean } {
  const saved = message.messageText;
  if (stream.start > saved.length) return { text: saved, gap: true };
  const joined = saved.slice(0, stream.start) + stream.text;
  return { text: joined.length > saved.length ? joined : saved, gap: false };
}

/** The messages with each pending answer's streamed text; and whether any stream has a gap. */
export function withLiveText(
  messages: readonly ChatMessage[],
  streams: Readonly<Record<string, LiveText>>,
): { messages: readonly ChatMessage[]; gap: boolean } {
  let gap = false;
  let changed = false;
  const shown = messages.map((message) => {
    const stream = streams[message.message_id];
    if (!stream || message.status !== 'PENDING') return message;
    const live = liveTextOf(message, stream);
    gap ||= live.gap;
    if (live.text === message.messageText) return message;
    changed = true;
    return { ...message, messageText: live.text };
  });
  return { messages: changed ? shown : messages, gap };
}
