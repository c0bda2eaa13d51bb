import { describe, expect, it } from 'vitest';
import { changedSince, plainText, readableMessages, userIdsOf, type People } from './documents';

const people: People = new Map([
  ['UGRACE', { name: 'Grace Hopper', email: 'grace@example.com' }],
  ['UGONE', null],
]);

describe('plainText', () => {
  it('reads Slack markup as a person would', () => {
    expect(
      plainText(
        'Hi <@UGRACE>, see <#C0ENG|eng> and <https://example.com/a?b=1|the plan> or <https://example.com>, <!here> &amp; <mailto:a@b.test|a@b.test> &lt;3',
        people,
      ),
    ).toBe(
      'Hi @Grace Hopper, see #eng and the plan (https://example.com/a?b=1) or https://example.com, @here & a@b.test <3',
    );
  });

  it('names a mention Slack could not resolve by its label, else as someone', () => {
    expect(plainText('<@UGONE|old-name> and <@UNKNOWN>', people)).toBe('@old-name and @someone');
  });
});

describe('readableMessages', () => {
  const raw = [
    { ts: '1.000001', text: 'kept' },
    { ts: '1.000002', subtype: 'channel_join', text: 'joined' },
    { ts: '1.000003', thread_ts: '1.000001', subtype: 'thread_broadcast', text: 'also sent to the channel' },
    { text: 'no ts' },
  ];

  it('keeps messages, leaving out channel events, broadcast replies and what has no timestamp', () => {
    expect(readableMessages(raw).map((message) => message.text)).toEqual(['kept']);
  });

  it('keeps the replies when reading a thread', () => {
    expect(readableMessages(raw, { replies: true }).map((message) => message.text)).toEqual([
      'kept',
      'also sent to the channel',
    ]);
  });
});

describe('changedSince and userIdsOf', () => {
  const messages = readableMessages([
    { ts: '100.000001', user: 'UADA', text: 'ping <@UGRACE>' },
    { ts: '90.000001', user: 'UGRACE', text: 'old', edited: { ts: '150.000000' } },
  ]);

  it('counts a post or an edit after the mark as a change', () => {
    expect(changedSince(messages, '99')).toBe(true);
    expect(changedSince(messages, '140')).toBe(true);
    expect(changedSince(messages, '150')).toBe(false);
  });

  it('collects authors and mentioned users once', () => {
    expect(userIdsOf(messages).sort()).toEqual(['UADA', 'UGRACE']);
  });
});
