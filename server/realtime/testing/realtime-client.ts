/**
 * A realtime socket client for tests: a real WebSocket (`ws`) to a listening server that reassembles CHUNK frames as
 * the app does and records every server message, so a test can wait for one and read the order they came in.
 */
import WebSocket from 'ws';
import {
  REALTIME_SOCKET_PATH,
  chunkFrameSchema,
  realtimeServerMessageSchema,
  type ChunkFrame,
  type RealtimeChannel,
  type RealtimeClientMessage,
  type RealtimeServerMessage,
} from '../../../common/api/realtime';
import { Reassembler } from '../../../common/realtime-framing';

export type Closed = { code: number; reason: string };
type Waiter = {
  test: (message: RealtimeServerMessage) => boolean;
  resolve: (message: RealtimeServerMessage) => void;
};

export class RealtimeTestClient {
  readonly messages: RealtimeServerMessage[] = [];
  /** Every CHUNK frame, as it came. */
  readonly frames: ChunkFrame[] = [];
  readonly closed: Promise<Closed>;
  private waiters: Waiter[] = [];
  private readonly reassembler = new Reassembler();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const json: unknown = JSON.parse(String(data));
      const frame = chunkFrameSchema.safeParse(json);
      if (frame.success) {
        this.frames.push(frame.data);
        const whole = this.reassembler.add(frame.data);
        if (whole !== null) this.receive(JSON.parse(whole));
        return;
      }
      this.receive(json);
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
    );
  }

  private receive(json: unknown): void {
    const message = realtimeServerMessageSchema.parse(json);
    this.messages.push(message);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test(message)) return true;
      waiter.resolve(message);
      return false;
    });
  }

  /** Opens a socket to `baseUrl` (http://127.0.0.1:port), sends AUTH when a token is given and waits for READY. */
  static async open(baseUrl: string, token?: string): Promise<RealtimeTestClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${REALTIME_SOCKET_PATH}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new RealtimeTestClient(socket);
    if (token) {
      client.send({ type: 'AUTH', token });
      await client.next('READY');
    }
    return client;
  }

  send(message: RealtimeClientMessage | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** SUBSCRIBE, answered by SUBSCRIBED or ERROR for that channel. */
  async subscribe(channel: RealtimeChannel): Promise<RealtimeServerMessage> {
    const from = this.messages.length;
    this.send({ type: 'SUBSCRIBE', channel });
    return this.nextOf(
      (message) =>
        (message.type === 'SUBSCRIBED' || message.type === 'ERROR') &&
        'channel' in message &&
        message.channel === channel,
      10_000,
      from,
    );
  }

  /** The first message (already received from index `from` on, or still to come) that passes `test`. */
  nextOf(
    test: (message: RealtimeServerMessage) => boolean,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<RealtimeServerMessage> {
    const seen = this.messages.slice(from).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no such message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
    });
  }

  next<T extends RealtimeServerMessage['type']>(
    type: T,
    test: (message: Extract<RealtimeServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Extract<RealtimeServerMessage, { type: T }>> {
    return this.nextOf(
      (message) => message.type === type && test(message as Extract<RealtimeServerMessage, { type: T }>),
      timeoutMs,
    ) as Promise<Extract<RealtimeServerMessage, { type: T }>>;
  }

  /** The events received on a channel, in order. */
  events(channel: string) {
    return this.messages.flatMap((message) =>
      message.type === 'EVENT' && message.channel === channel ? [message.event] : [],
    );
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
    }
    await this.closed;
  }
}
