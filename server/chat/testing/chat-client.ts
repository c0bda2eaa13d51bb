/**
 * A chat socket client for tests: a real WebSocket (`ws`, since Node 20 has none) to a listening server, recording
 * every server message so a test can wait for one and read the order they came in.
 */
import WebSocket from 'ws';
import { CHAT_SOCKET_PATH, type ClientMessageInput, type ServerMessage } from '../../../common/api/chat';

export type Closed = { code: number; reason: string };

export class ChatTestClient {
  readonly messages: ServerMessage[] = [];
  readonly closed: Promise<Closed>;
  private waiters: {
    test: (message: ServerMessage) => boolean;
    resolve: (message: ServerMessage) => void;
  }[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.messages.push(message);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
    );
  }

  /** Opens a socket to `baseUrl` (http://127.0.0.1:port), and sends AUTH when a token is given. */
  static async open(baseUrl: string, token?: string): Promise<ChatTestClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${CHAT_SOCKET_PATH}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new ChatTestClient(socket);
    if (token) client.send({ type: 'AUTH', token });
    return client;
  }

  send(message: ClientMessageInput | string | Buffer): void {
    this.socket.send(
      typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message),
    );
  }

  /** The first message (already received or still to come) of a type that passes `test`. */
  next<T extends ServerMessage['type']>(
    type: T,
    test: (message: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const matches = (message: ServerMessage): message is Extract<ServerMessage, { type: T }> =>
      message.type === type && test(message as Extract<ServerMessage, { type: T }>);
    const seen = this.messages.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no ${type} within ${timeoutMs} ms; got ${this.messages.map((m) => m.type).join(', ')}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        test: matches,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message as Extract<ServerMessage, { type: T }>);
        },
      });
    });
  }

  /** Every message of a type so far. */
  all<T extends ServerMessage['type']>(type: T): Extract<ServerMessage, { type: T }>[] {
    return this.messages.filter(
      (message): message is Extract<ServerMessage, { type: T }> => message.type === type,
    );
  }

  /** The answer's text as the CHUNKs spelt it. */
  text(): string {
    return this.all('CHUNK')
      .map((chunk) => chunk.text)
      .join('');
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
    }
    await this.closed;
  }
}
