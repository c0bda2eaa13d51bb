/**
 * The realtime hub (DESIGN §1): `publish(orgId, channel, event)` reaches every socket subscribed to the channel, on
 * this instance at once and, on a PostgreSQL server, on every other instance through LISTEN/NOTIFY (bridge.ts). On
 * the embedded store there is only ever one process, so the hub is in-process only.
 *
 * The hub decides nothing about who may read what: a socket subscribes only after its checks (socket.ts), and
 * filters per reader what it passes on.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelEvents, RealtimeEvent } from '../../common/api/realtime';
import type { Store } from '../db/store';
import { startNotifyBridge, type Envelope, type NotifyBridge } from './bridge';

/** Where an event goes: a member's own channels, or a topic's. Always within one org. */
export type HubChannel =
  | { kind: 'user'; userId: string }
  | { kind: 'notifications'; userId: string }
  | { kind: 'topic'; topicId: string };

declare module 'fastify' {
  interface FastifyInstance {
    realtime: RealtimeHub;
  }
}

export type Subscriber = (event: RealtimeEvent) => void;

function keyOf(orgId: string, channel: HubChannel): string {
  return `${orgId}/${channel.kind}/${channel.kind === 'topic' ? channel.topicId : channel.userId}`;
}

export class RealtimeHub {
  /** Tells this instance's own envelopes apart when NOTIFY hands them back. */
  readonly instanceId = randomUUID();
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private bridge: NotifyBridge | null = null;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Carries events to and from the other instances on the same PostgreSQL server. */
  async connect(store: Store): Promise<void> {
    if (store.kind !== 'server' || !store.dedicatedClient) return;
    this.bridge = await startNotifyBridge({
      store,
      instanceId: this.instanceId,
      log: this.log,
      onEnvelope: (envelope) => this.deliver(envelope),
    });
  }

  publish<C extends HubChannel>(orgId: string, channel: C, event: ChannelEvents[C['kind']]): void {
    const envelope: Envelope = { orgId, channel, event };
    this.deliver(envelope);
    this.bridge?.send(envelope);
  }

  /** Calls `subscriber` with every event of the channel from now on. Returns the unsubscribe. */
  subscribe(orgId: string, channel: HubChannel, subscriber: Subscriber): () => void {
    const key = keyOf(orgId, channel);
    const set = this.subscribers.get(key) ?? new Set<Subscriber>();
    set.add(subscriber);
    this.subscribers.set(key, set);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(key) === set) this.subscribers.delete(key);
    };
  }

  /** Channels with a subscriber on this instance (tests, health). */
  get channelCount(): number {
    return this.subscribers.size;
  }

  private deliver(envelope: Envelope): void {
    const set = this.subscribers.get(keyOf(envelope.orgId, envelope.channel));
    if (!set) return;
    for (const subscriber of [...set]) {
      try {
        subscriber(envelope.event);
      } catch (error) {
        this.log.error({ err: error }, 'a realtime subscriber failed');
      }
    }
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    await this.bridge?.close();
    this.bridge = null;
  }
}
