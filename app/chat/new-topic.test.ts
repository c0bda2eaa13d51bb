import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../common/api/messages';
import { newExchange, type Exchange } from './answer-state';
import { mergeMessages } from './conversation';
import { itemsSince } from './new-topic';

const author = { email: null, display_name: null, icon: null };

function exchange(key: string, conversationId: string | null): Exchange {
  return newExchange({
    key,
    answerKey: `${key}:a`,
    query: key,
    conversationId,
    topicTitle: '',
    author,
    deepresearch: false,
    now: new Date('2025-01-01T10:00:00Z'),
  });
}

const serverCopy = (message: ChatMessage, conversationId: string): ChatMessage => ({
  ...message,
  conversation_id: conversationId,
  status: 'SUCCESS',
});

describe('itemsSince (New topic)', () => {
  it('shows nothing of what was on screen, and what is asked after, with the rest of its new topic', () => {
    const old = exchange('q1', 'topic-old');
    const history = [serverCopy(exchange('h1', 'topic-old').question, 'topic-old')];
    const asked = exchange('q2', null);
    const before = new Set([old.key]);

    // just cleared: nothing to show
    expect(itemsSince(mergeMessages(history, [old]), [old], before)).toEqual([]);

    // asked, not yet accepted (no topic yet): the question and its pending answer
    const pending = itemsSince(mergeMessages(history, [old, asked]), [old, asked], before);
    expect(pending.map((item) => item.message.message_id)).toEqual(['q2', 'q2:a']);

    // accepted into a new topic, and the history read again holds another message of that topic
    const accepted: Exchange = {
      ...asked,
      question: { ...asked.question, conversation_id: 'topic-new' },
      answer: { ...asked.answer, conversation_id: 'topic-new' },
    };
    const reread = [...history, serverCopy(exchange('n1', 'topic-new').question, 'topic-new')];
    const shown = itemsSince(mergeMessages(reread, [old, accepted]), [old, accepted], before);
    expect(shown.map((item) => item.message.message_id)).toEqual(['n1', 'q2', 'q2:a']);
    expect(shown.every((item) => item.message.conversation_id === 'topic-new')).toBe(true);
  });
});
