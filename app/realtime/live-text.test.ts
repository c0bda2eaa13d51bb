import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../common/api/messages';
import { appendChunk, liveTextOf, withLiveText, type LiveText } from './live-text';

const chunk = (offset: number, text: string) => ({
  type: 'answer.chunk' as const,
  topicId: 't',
  answerId: 'a',
  offset,
  text,
});

describe('appendChunk', () => {
  it('appends a chunk that continues the stream, and keeps the stream for a repeat', () => {
    let stream = appendChunk(undefined, chunk(0, 'The office '));
    stream = appendChunk(stream, chunk(11, 'opens '));
    expect(stream).toEqual({ start: 0, text: 'The office opens ' });
    expect(appendChunk(stream, chunk(4, 'office '))).toBe(stream);
  });

  it('starts again at a chunk that leaves a gap', () => {
    const stream = appendChunk(undefined, chunk(0, 'abc'));
    expect(appendChunk(stream, chunk(10, 'xyz'))).toEqual({ start: 10, text: 'xyz' });
  });
});

describe('liveTextOf', () => {
  const stream: LiveText = { start: 6, text: 'office opens at nine.' };

  it('continues the saved text with the stream, whichever is ahead', () => {
    expect(liveTextOf({ messageText: 'The ' }, { start: 4, text: 'office' })).toEqual({
      text: 'The office',
      gap: false,
    });
    // the server saved more than was streamed to this reader so far
    expect(liveTextOf({ messageText: 'The office opens' }, { start: 4, text: 'off' })).toEqual({
      text: 'The office opens',
      gap: false,
    });
    expect(liveTextOf({ messageText: 'The office' }, { start: 4, text: 'office opens' }).text).toBe(
      'The office opens',
    );
  });

  it('reports a gap when the stream starts past the saved text', () => {
    expect(liveTextOf({ messageText: 'The' }, stream)).toEqual({ text: 'The', gap: true });
  });
});

describe('withLiveText', () => {
  const message = (id: string, status: ChatMessage['status'], messageText: string) =>
    ({ message_id: id, status, messageText }) as ChatMessage;

  it('shows streamed text on pending answers only, and hands back the same list when nothing changes', () => {
    const messages = [
      message('q', 'SUCCESS', 'When?'),
      message('a', 'PENDING', ''),
      message('b', 'SUCCESS', 'Done.'),
    ];
    const shown = withLiveText(messages, {
      a: { start: 0, text: 'At nine.' },
      b: { start: 0, text: 'Done. And more' },
    });
    expect(shown.messages.map((m) => m.messageText)).toEqual(['When?', 'At nine.', 'Done.']);
    expect(shown.gap).toBe(false);
    expect(withLiveText(messages, {}).messages).toBe(messages);
    expect(withLiveText(messages, { a: { start: 3, text: 'x' } })).toEqual({ messages, gap: true });
  });
});
