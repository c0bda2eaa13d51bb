import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../common/api/messages';
import { newExchange } from './answer-state';
import { accessOfGroup, groupByTopic, mergeMessages, reconnectableAnswers } from './conversation';

const now = Date.parse('2025-01-01T10:00:00Z');

function message(id: string, changes: Partial<ChatMessage> = {}): ChatMessage {
  const live = newExchange({
    key: id,
    answerKey: `${id}:a`,
    query: id,
    conversationId: 'c-1',
    topicTitle: 'First',
    author: { email: null, display_name: null, icon: null },
    deepresearch: false,
    now: new Date(now - 60_000),
  });
  return { ...live.question, status: 'SUCCESS', ...changes };
}

describe('the conversation list', () => {
  it('puts a live question in place of the server copy and new ones after everything', () => {
    const server = [message('m1'), message('m2')];
    const live = newExchange({
      key: 'm2',
      answerKey: 'm2:a',
      query: 'm2',
      conversationId: 'c-1',
      topicTitle: 'First',
      author: { email: null, display_name: null, icon: null },
      deepresearch: false,
      now: new Date(now),
    });
    const items = mergeMessages(server, [live]);
    expect(items.map((item) => item.message.message_id)).toEqual(['m1', 'm2', 'm2:a']);
    expect(items[2]!.exchange).toBe(live);
  });

  it('groups consecutive messages of a topic under its latest title or a rename', () => {
    const items = mergeMessages(
      [
        message('m1'),
        message('m2', { topic_title: 'Renamed later' }),
        message('m3', { conversation_id: 'c-2', topic_title: 'Second' }),
      ],
      [],
    );
    const groups = groupByTopic(items, { 'c-2': 'Mine' });
    expect(groups.map((group) => [group.conversationId, group.title, group.items.length])).toEqual([
      ['c-1', 'Renamed later', 2],
      ['c-2', 'Mine', 1],
    ]);
  });

  it('reconnects recent pending answers nobody follows', () => {
    const question = message('q1');
    const answer = message('a1', { sender: 'ASSISTANT', status: 'PENDING', reply_to_id: 'q1' });
    expect(reconnectableAnswers([question, answer], new Set(), now)).toHaveLength(1);
    expect(reconnectableAnswers([question, answer], new Set(['q1']), now)).toHaveLength(0);
    expect(reconnectableAnswers([question, answer], new Set(), now + 5 * 60_000)).toHaveLength(0);
    const research = { ...answer, deepresearch: true };
    expect(reconnectableAnswers([question, research], new Set(), now + 10 * 60_000)).toHaveLength(1);
  });
});

describe("a topic group's access", () => {
  it("comes from the newest message the server listed, not from a live answer's defaults", () => {
    const shared = { isMultiplayer: true, isOrgWide: true, isPublic: false };
    const live = newExchange({
      key: 'm3',
      answerKey: 'm3:a',
      query: 'm3',
      conversationId: 'c-1',
      topicTitle: 'First',
      author: { email: null, display_name: null, icon: null },
      deepresearch: false,
      now: new Date(now),
    });
    const [group] = groupByTopic(mergeMessages([message('m1', { topicAccess: shared })], [live]));
    expect(accessOfGroup(group!)).toEqual(shared);
    const [fresh] = groupByTopic(mergeMessages([], [live]));
    expect(accessOfGroup(fresh!)).toEqual({ isMultiplayer: false, isOrgWide: false, isPublic: false });
  });
});
