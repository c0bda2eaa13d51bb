// The chat socket's client (spec shell-and-account §7.5; protocol in common/api/chat.ts): one browser WebSocket to
// /_chat_ws that sends AUTH first, then only messages the client schema accepts, and hands on only server messages
// that parse. A frame that does not parse is dropped (and logged), never guessed at.
import {
  CHAT_SOCKET_PATH,
  clientMessageSchema,
  serverMessageSchema,
  type ClientMessageInput,
  type ServerMessage,
} from '../../common/api/chat';

export type ChatSocketHandlers = {
  /** AUTH has been sent: the socket is ready for QUERY, RECONNECT and STOP_GENERATION. */
  onOpen(): void;
  onMessage(message: ServerMessage): void;
  /** Every close, ours or the server's, once. */
  onClose(code: number, reason: string): void;
};

/** ws:// or wss:// on the page's own host. */
export function chatSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${CHAT_SOCKET_PATH}`;
}

/** A server frame as a typed message, or null when it is not one of the server's messages. */
export function parseServerMessage(data: unknown): ServerMessage | null {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = serverMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export class ChatSocket {
  private readonly socket: WebSocket;
  private closed = false;

  constructor(
    private token: string,
    handlers: ChatSocketHandlers,
    url: string = chatSocketUrl(),
  ) {
    this.socket = new WebSocket(url);
    this.socket.addEventListener('open', () => {
      this.send({ type: 'AUTH', token: this.token });
      handlers.onOpen();
    });
    this.socket.addEventListener('message', (event: MessageEvent) => {
      const message = parseServerMessage(event.data);
      if (message) handlers.onMessage(message);
      else console.warn('chat socket: ignored a frame that is not a server message', event.data);
    });
    this.socket.addEventListener('close', (event: CloseEvent) => {
      if (this.closed) return;
      this.closed = true;
      handlers.onClose(event.code, event.reason);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Validates with the client schema (defaults applied) and sends; false when the socket is not open. */
  send(message: ClientMessageInput): boolean {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(clientMessageSchema.parse(message)));
    return true;
  }

  /** A refreshed token for the same member: the server checks every later QUERY against it. */
  reauthenticate(token: string): void {
    if (token === this.token) return;
    this.token = token;
    this.send({ type: 'AUTH', token });
  }

  close(): void {
    if (this.socket.readyState === WebSocket.CLOSED || this.socket.readyState === WebSocket.CLOSING) return;
    this.socket.close(1000);
  }
}
