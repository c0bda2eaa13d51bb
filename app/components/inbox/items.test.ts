import { describe, expect, it } from 'vitest';
import type { NotificationData } from '../../../common/api/notifications';
import { itemPath, plainLine } from './items';

const data = (messageId: string | null): NotificationData => ({
  type: 'notify-tagged-users',
  topic_id: 't1',
  topic_title: 'Launch',
  message_id: messageId,
  bot_id: null,
  managed_bot_details: null,
  message_slice: null,
  success: null,
});

describe('inbox items', () => {
  it('lead to the topic, at the message when there is one', () => {
    expect(itemPath({ data: data(null) })).toBe('/topic/t1');
    expect(itemPath({ data: data('m2') })).toBe('/topic/t1/m2');
  });

  it('read as plain text without bold marks or escapes', () => {
    expect(plainLine({ markdown: '**Owen** tagged you in **Q3 \\[plan\\] \\*draft\\***' })).toBe(
      'Owen tagged you in Q3 [plan] *draft*',
    );
  });
});
