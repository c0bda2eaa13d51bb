/**
 * Realtime fan-out between `scout serve` instances on one PostgreSQL server (DESIGN §1): every instance LISTENs on
 * one channel through a connection of its own (LISTEN holds its connection, so it cannot be a pool's), and publishes
 * with NOTIFY through the pool.
 *
 * NOTIFY payloads must be shorter than 8000 bytes. An event is sent whole when it fits, otherwise in pieces joined
 * again by index (common/realtime-framing.ts, the same framing the socket uses for 50 KB), rather than by reference
 * through a table: answer text is the only large event, it is already saved in its message row a moment later, and
 * pieces cost no table, no clean-up and no read per receiving instance. Each piece's text is at most
 * NOTIFY_PIECE_BYTES, so even with every character escaped twice over (`"` and `\`) a piece's payload stays under
 * the limit.
 *
 * Order: NOTIFY delivers in commit order, so this instance's sends run one after another (each its own statement),
 * never side by side on two pooled connections. A lost listening connection is opened again with a growing delay;
 * events published meanwhile are lost to this instance's sockets (readers fetch the finished message anyway).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { notificationsEventSchema, topicEventSchema, userEventSchema } from '../../common/api/realtime';
import { Reassembler, splitUtf8, utf8Length } from '../../common/realtime-framing';
import type { Store } from '../db/store';
import type { HubChannel } from './hub';

/** The PostgreSQL notification channel every instance listens on. */
export const NOTIFY_CHANNEL = 'scout_realtime';
/** PostgreSQL refuses a payload of 8000 bytes or more. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7999;
/** A piece's share of an envelope's JSON; doubled by escaping plus the piece's own fields, still under the limit. */
export const NOTIFY_PIECE_BYTES = 3800;
const RELISTEN_DELAY_MS = 1_000;
const RELISTEN_DELAY_MAX_MS = 30_000;

export const envelopeSchema = z.object({
  orgId: z.string(),
  channel: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('user'), userId: z.string() }),
    z.object({ kind: z.literal('notifications'), userId: z.string() }),
    z.object({ kind: z.literal('topic'), topicId: z.string() }),
  ]) satisfies z.ZodType<HubChannel>,
  event: z.union([userEventSchema, notificationsEventSchema, topicEventSchema]),
});
export type Envelope = z.infer<typeof envelopeSchema>;

/** What goes through NOTIFY: a whole envelope, or one piece of one, from instance `from`. */
const payloadSchema = z.union([
  z.object({ from: z.string(), envelope: envelopeSchema }),
  z.object({
    from: z.string(),
    id: z.string(),
    index: z.number().int(),
    count: z.number().int(),
    data: z.string(),
  }),
]);

/** The NOTIFY payloads that carry one envelope, in order. */
export function notifyPayloads(instanceId: string, envelope: Envelope, pieceId: string): string[] {
  const whole = JSON.stringify({ from: instanceId, envelope });
  if (utf8Length(whole) <= NOTIFY_PAYLOAD_MAX_BYTES) return [whole];
  const pieces = splitUtf8(JSON.stringify(envelope), NOTIFY_PIECE_BYTES);
  return pieces.map((data, index) =>
    JSON.stringify({ from: instanceId, id: pieceId, index, count: pieces.length, data }),
  );
}

export type NotifyBridge = { send(envelope: Envelope): void; close(): Promise<void> };

export async function startNotifyBridge(options: {
  store: Store;
  instanceId: string;
  log: FastifyBaseLogger;
  onEnvelope(envelope: Envelope): void;
}): Promise<NotifyBridge> {
  const { store, instanceId, log, onEnvelope } = options;
  const reassemblers = new Map<string, Reassembler>();
  let client: pg.Client | null = null;
  let closed = false;
  let relistenDelay = RELISTEN_DELAY_MS;
  let relistenTimer: NodeJS.Timeout | null = null;
  let sending: Promise<void> = Promise.resolve();
  let pieceCounter = 0;

  const receive = (payload: string | undefined) => {
    let json: unknown;
    try {
      json = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    const parsed = payloadSchema.safeParse(json);
    if (!parsed.success || parsed.data.from === instanceId) return;
    const message = parsed.data;
    if ('envelope' in message) {
      onEnvelope(message.envelope);
      return;
    }
    const reassembler = reassemblers.get(message.from) ?? new Reassembler();
    reassemblers.set(message.from, reassembler);
    const whole = reassembler.add(message);
    if (reassembler.pending === 0) reassemblers.delete(message.from);
    if (whole === null) return;
    try {
      const envelope = envelopeSchema.safeParse(JSON.parse(whole));
      if (envelope.success) onEnvelope(envelope.data);
    } catch {
      log.warn('a realtime event from another instance did not parse');
    }
  };

  const listen = async (): Promise<void> => {
    const next = await store.dedicatedClient!();
    next.on('notification', (notification) => {
      if (notification.channel === NOTIFY_CHANNEL) receive(notification.payload);
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'realtime: the LISTEN connection failed; opening another');
      lose(next);
    });
    next.on('end', () => lose(next));
    try {
      await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    relistenDelay = RELISTEN_DELAY_MS;
  };

  const scheduleListen = () => {
    if (closed || relistenTimer) return;
    relistenTimer = setTimeout(() => {
      relistenTimer = null;
      listen().catch((error: unknown) => {
        log.warn({ err: error }, 'realtime: LISTEN failed; trying again');
        relistenDelay = Math.min(relistenDelay * 2, RELISTEN_DELAY_MAX_MS);
        scheduleListen();
      });
    }, relistenDelay);
    relistenTimer.unref();
  };

  const lose = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    lost.end().catch(() => undefined);
    scheduleListen();
  };

  // A server that cannot LISTEN yet (PostgreSQL restarting) still serves everything else; it keeps trying.
  await listen().catch((error: unknown) => {
    log.warn({ err: error }, 'realtime: LISTEN failed; other instances are not heard until it succeeds');
    scheduleListen();
  });

  return {
    send(envelope) {
      const payloads = notifyPayloads(instanceId, envelope, `${instanceId}:${pieceCounter++}`);
      sending = sending.then(async () => {
        try {
          for (const payload of payloads) {
            await store.db.execute(sql`SELECT pg_notify(${NOTIFY_CHANNEL}, ${payload})`);
          }
        } catch (error) {
          log.warn({ err: error }, 'realtime: NOTIFY failed; other instances miss this event');
        }
      });
    },
    async close() {
      closed = true;
      if (relistenTimer) clearTimeout(relistenTimer);
      await sending;
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
