// The hub's own rules (no store needed: the embedded store's hub is in-process) and the NOTIFY payloads it makes
// for other instances. Across two instances on one PostgreSQL server: instances.test.ts.
import { describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../common/api/realtime';
import { Reassembler } from '../../common/realtime-framing';
import { createLogger } from '../logger';
import { NOTIFY_PAYLOAD_MAX_BYTES, notifyPayloads, type Envelope } from './bridge';
import { RealtimeHub } from './hub';

const ORG = 'org-1';
const OTHER_ORG = 'org-2';

function record(hub: RealtimeHub, orgId: string, channel: Parameters<RealtimeHub['subscribe']>[1]) {
  const got: RealtimeEvent[] = [];
  const stop = hub.subscribe(orgId, channel, (event) => got.push(event));
  return { got, stop };
}

describe('RealtimeHub', () => {
  it('delivers to the channel’s subscribers only, in publishing order, within one org', () => {
    const hub = new RealtimeHub(createLogger('silent'));
    const topic = record(hub, ORG, { kind: 'topic', topicId: 't1' });
    const otherTopic = record(hub, ORG, { kind: 'topic', topicId: 't2' });
    const sameIdOtherOrg = record(hub, OTHER_ORG, { kind: 'topic', topicId: 't1' });
    const bobUser = record(hub, ORG, { kind: 'user', userId: 'bob' });
    const bobInbox = record(hub, ORG, { kind: 'notifications', userId: 'bob' });

    for (let offset = 0; offset < 5; offset++) {
      hub.publish(
        ORG,
        { kind: 'topic', topicId: 't1' },
        { type: 'answer.chunk', topicId: 't1', answerId: 'a', offset, text: String(offset) },
      );
    }
    hub.publish(
      ORG,
      { kind: 'notifications', userId: 'bob' },
      { type: 'notification.created', unreadCount: 3 },
    );
    hub.publish(ORG, { kind: 'user', userId: 'alice' }, { type: 'topics.changed' });

    expect(topic.got.map((event) => (event.type === 'answer.chunk' ? event.text : null))).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(otherTopic.got).toEqual([]);
    expect(sameIdOtherOrg.got).toEqual([]);
    expect(bobUser.got).toEqual([]);
    expect(bobInbox.got).toEqual([{ type: 'notification.created', unreadCount: 3 }]);
  });

  it('stops delivering once unsubscribed, and keeps delivering to the others when one subscriber throws', () => {
    const hub = new RealtimeHub(createLogger('silent'));
    hub.subscribe(ORG, { kind: 'user', userId: 'bob' }, () => {
      throw new Error('a broken socket');
    });
    const first = record(hub, ORG, { kind: 'user', userId: 'bob' });
    const second = record(hub, ORG, { kind: 'user', userId: 'bob' });
    hub.publish(ORG, { kind: 'user', userId: 'bob' }, { type: 'topics.changed' });
    first.stop();
    hub.publish(ORG, { kind: 'user', userId: 'bob' }, { type: 'topics.changed' });
    expect(first.got).toHaveLength(1);
    expect(second.got).toHaveLength(2);
  });
});

describe('NOTIFY payloads', () => {
  const envelope = (text: string): Envelope => ({
    orgId: ORG,
    channel: { kind: 'topic', topicId: 't1' },
    event: { type: 'answer.chunk', topicId: 't1', answerId: 'a', offset: 0, text },
  });

  it('sends a small event whole', () => {
    const payloads = notifyPayloads('me', envelope('short'), 'p1');
    expect(payloads).toHaveLength(1);
    expect(JSON.parse(payloads[0]!)).toEqual({ from: 'me', envelope: envelope('short') });
  });

  it('keeps every payload under 8000 bytes, even for text that escapes to twice its size, and joins back exactly', () => {
    for (const text of ['"\\'.repeat(20_000), '€😀"'.repeat(5_000), 'x'.repeat(7_990)]) {
      const payloads = notifyPayloads('me', envelope(text), 'p1');
      expect(payloads.length).toBeGreaterThan(1);
      for (const payload of payloads)
        expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_MAX_BYTES);
      const reassembler = new Reassembler();
      const wholes = payloads.map((payload) => reassembler.add(JSON.parse(payload))).filter(Boolean);
      expect(wholes).toHaveLength(1);
      expect(JSON.parse(wholes[0]!)).toEqual(envelope(text));
    }
  });
});
