/**
 * The chat socket /_chat_ws (spec shell-and-account §7.5; protocol in common/api/chat.ts).
 *
 * - The first message must be AUTH with the bearer id token, verified exactly as the HTTP guard verifies a header.
 *   Anything else first, or a bad token, closes with 4401 ('Tokens not found' / 'Invalid token'); so does silence
 *   for AUTH_TIMEOUT_MS. A later AUTH (a refreshed token) must name the same member.
 * - Every frame is parsed with the zod schemas: malformed JSON or a wrong shape answers an ERROR and the socket stays
 *   usable; a frame over 64 KB closes with 1009.
 * - Messages of one socket are handled in order. A QUERY while this socket's answer (or its topic's) is still being
 *   generated is refused with the spec's 'Please hold on…'.
 * - Pings every HEARTBEAT_MS; a socket that missed the previous pong is terminated. At most
 *   CHAT_SOCKETS_PER_USER_MAX sockets per member (4429 beyond).
 * - A closing socket only stops listening: its answer goes on and is saved, for RECONNECT or GET /messages/message.
 * - Several instances may share one store: RECONNECT follows an answer another instance writes through its row, and
 *   STOP_GENERATION reaches it through the row too (follow.ts requestStop / watchStopRequests).
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  CHAT_MESSAGE_MAX_BYTES,
  CHAT_SOCKET_PATH,
  CHAT_SOCKETS_PER_USER_MAX,
  ChatCloseCode,
  ChatCloseReason,
  clientMessageSchema,
  type ChatErrorCode,
  type ClientMessage,
  type ServerMessage,
} from '../../common/api/chat';
import { parseRequest } from '../../common/api/input';
import { CHAT_QUESTION_RATE_LIMIT } from '../../common/limits';
import { validation } from '../../common/strings';
import { authenticateToken } from '../auth/guard';
import type { Viewer } from '../context';
import { takeMemberBudget } from '../http/member-rate-limit';
import { loadLlmEnvironment } from '../llm/config';
import { GenerationRegistry, type Generation, type Listener } from './generations';
import { acceptQuery } from './accept';
import { reconnect, requestStop, stopGeneration, watchStopRequests } from './follow';
import { ChatRefusal, loadChatSettings, type ChatDeps } from './settings';

const HEARTBEAT_MS = 30_000;
const AUTH_TIMEOUT_MS = 10_000;
/** On shutdown, answers in progress get this long to finish before they are saved as FAILED. */
const DRAIN_TIMEOUT_MS = 10_000;

class ChatConnection {
  private viewer: Viewer | null = null;
  private token = '';
  private queue: Promise<void> = Promise.resolve();
  /** The answer this socket asked for or reconnected to. */
  private followed: Generation | null = null;
  /** How this socket listens to `followed`: its own listener, or a RECONNECT's view of the answer. */
  private followedBy: Listener | null = null;
  /** An answer another instance writes, followed through the store, and how to stop following it. */
  private followedElsewhere: { answerId: string; stop: () => void } | null = null;
  /** A QUERY is between its receipt and its generation's start. */
  private accepting = false;
  private alive = true;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly authTimer: NodeJS.Timeout;
  private readonly listener: Listener = (message) => this.send(message);

  constructor(
    private readonly socket: WebSocket,
    private readonly request: FastifyRequest,
    private readonly deps: ChatDeps,
    private readonly sockets: Map<string, Set<WebSocket>>,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.authTimer = setTimeout(
      () => this.close(ChatCloseCode.unauthorized, ChatCloseReason.TOKENS_NOT_FOUND),
      AUTH_TIMEOUT_MS,
    );
    this.authTimer.unref();
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      const text = isBinary
        ? null
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.from(data as ArrayBuffer).toString('utf8');
      this.queue = this.queue.then(() => this.receive(text)).catch((error: unknown) => this.fail(error));
    });
    socket.on('close', () => this.onClose());
    socket.on('error', (error) => this.deps.log.debug({ err: error }, 'chat socket error'));
  }

  private send(message: ServerMessage): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private error(code: ChatErrorCode, message: string, messageId?: string | null): void {
    this.send({ type: 'ERROR', code, message, ...(messageId ? { message_id: messageId } : {}) });
  }

  private close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(code, reason);
    else if (this.socket.readyState !== this.socket.CLOSED) this.socket.terminate();
  }

  private beat(): void {
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    if (this.socket.readyState === this.socket.OPEN) this.socket.ping();
  }

  private fail(error: unknown): void {
    this.deps.log.error({ err: error }, 'chat socket message failed');
    this.error('INTERNAL', 'Something went wrong on the server. Please try again.');
  }

  private parse(text: string | null): ClientMessage | { invalid: string } {
    if (text === null) return { invalid: 'Messages must be JSON text.' };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { invalid: 'Messages must be JSON.' };
    }
    // The same input rules as every REST request: no control characters, bounded nesting, no echo of the input.
    const parsed = parseRequest(clientMessageSchema, json, 'message');
    return parsed.success ? parsed.data : { invalid: parsed.message };
  }

  private async receive(text: string | null): Promise<void> {
    const message = this.parse(text);
    // The client sends STOP_GENERATION and closes at once (spec): the stop must still be carried out, even when it
    // waited in the queue behind its QUERY until after the socket closed.
    if (this.closed && !('type' in message && message.type === 'STOP_GENERATION')) return;
    if (!this.viewer) {
      if ('invalid' in message || message.type !== 'AUTH') {
        this.close(ChatCloseCode.unauthorized, ChatCloseReason.TOKENS_NOT_FOUND);
        return;
      }
      await this.authenticate(message.token, true);
      return;
    }
    if ('invalid' in message) {
      this.error('INVALID_MESSAGE', message.invalid);
      return;
    }
    switch (message.type) {
      case 'AUTH':
        await this.authenticate(message.token, false);
        return;
      case 'QUERY':
        if (!(await this.recheck())) return;
        await this.query(message);
        return;
      case 'RECONNECT':
        if (!(await this.recheck())) return;
        await this.reconnect(message);
        return;
      case 'STOP_GENERATION':
        await this.stop(message.message_id ?? null);
        return;
    }
  }

  /** Verifies a token as the HTTP guard does (signature, expiry, live member, session not revoked). */
  private verify(token: string): Promise<Viewer | null> {
    return authenticateToken(this.request, token);
  }

  private async authenticate(token: string, first: boolean): Promise<void> {
    const viewer = await this.verify(token);
    if (!viewer || (!first && viewer.userId !== this.viewer?.userId)) {
      this.close(ChatCloseCode.unauthorized, ChatCloseReason.INVALID_TOKEN);
      return;
    }
    this.token = token;
    if (!first) {
      this.viewer = viewer;
      return;
    }
    clearTimeout(this.authTimer);
    const open = this.sockets.get(viewer.userId) ?? new Set<WebSocket>();
    if (open.size >= CHAT_SOCKETS_PER_USER_MAX) {
      this.close(ChatCloseCode.tooManySockets, ChatCloseReason.TOO_MANY_SOCKETS);
      return;
    }
    open.add(this.socket);
    this.sockets.set(viewer.userId, open);
    this.viewer = viewer;
  }

  /** A session revoked or a member blocked since AUTH ends the socket at the next request. */
  private async recheck(): Promise<boolean> {
    const viewer = await this.verify(this.token);
    if (!viewer) {
      this.close(ChatCloseCode.unauthorized, ChatCloseReason.INVALID_TOKEN);
      return false;
    }
    this.viewer = viewer;
    return true;
  }

  private busy(): boolean {
    return this.accepting || (this.followed !== null && !this.followed.finished);
  }

  private unfollow(): void {
    if (this.followedBy) this.followed?.detach(this.followedBy);
    this.followed = null;
    this.followedBy = null;
    this.followedElsewhere?.stop();
    this.followedElsewhere = null;
  }

  private async query(message: Extract<ClientMessage, { type: 'QUERY' }>): Promise<void> {
    // counted before anything else, so a script sending questions into a busy topic is stopped too
    if (takeMemberBudget(this.request.server, this.viewer!, 'chat', CHAT_QUESTION_RATE_LIMIT) !== null) {
      this.error('RATE_LIMITED', validation.TOO_MANY_REQUESTS);
      return;
    }
    if (this.busy()) {
      this.error('BUSY', validation.WAIT_FOR_PREVIOUS_ANSWER);
      return;
    }
    this.unfollow();
    this.accepting = true;
    try {
      this.followed = await acceptQuery(this.deps, this.viewer!, message, this.listener);
      this.followedBy = this.listener;
    } catch (error) {
      if (error instanceof ChatRefusal) this.error(error.code, error.message);
      else throw error;
    } finally {
      this.accepting = false;
    }
  }

  private async reconnect(message: Extract<ClientMessage, { type: 'RECONNECT' }>): Promise<void> {
    this.unfollow();
    try {
      const result = await reconnect(this.deps, this.viewer!, message, this.listener);
      if (result.kind === 'live') {
        this.followed = result.generation;
        this.followedBy = result.listener;
      }
      if (result.kind === 'following') this.followedElsewhere = result;
    } catch (error) {
      if (error instanceof ChatRefusal) this.error(error.code, error.message, message.message_id);
      else throw error;
    }
  }

  /** Stops the named answer, or the one this socket follows, wherever it is being written. */
  private async stop(messageId: string | null): Promise<void> {
    const local = messageId ? this.deps.registry.find(messageId) : this.followed;
    if (local) {
      if (stopGeneration(this.deps, this.viewer!, local)) return;
    } else {
      const elsewhere = messageId ?? this.followedElsewhere?.answerId;
      if (elsewhere && (await requestStop(this.deps, this.viewer!, elsewhere))) return;
    }
    this.error('NOTHING_TO_DO', 'There is no answer being generated to stop.', messageId);
  }

  private onClose(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.authTimer);
    this.unfollow();
    if (this.viewer) {
      const open = this.sockets.get(this.viewer.userId);
      open?.delete(this.socket);
      if (open?.size === 0) this.sockets.delete(this.viewer.userId);
    }
  }
}

/** Registers the websocket plugin and /_chat_ws, and drains answers in progress when the server closes. */
export async function registerChat(app: FastifyInstance): Promise<void> {
  await app.register(websocket, { options: { maxPayload: CHAT_MESSAGE_MAX_BYTES } });
  const registry = new GenerationRegistry();
  const sockets = new Map<string, Set<WebSocket>>();
  const deps: ChatDeps = {
    store: app.ctx.store,
    log: app.log.child({ module: 'chat' }),
    registry,
    settings: loadChatSettings(),
    llmEnvironment: () => loadLlmEnvironment(),
    notifier: app.ctx.notifier,
    realtime: app.realtime,
  };
  const stopWatching = watchStopRequests(deps);
  app.get(CHAT_SOCKET_PATH, { websocket: true }, (socket, request) => {
    new ChatConnection(socket, request, deps, sockets);
  });
  app.addHook('onClose', async () => {
    stopWatching();
    const live = registry.all();
    const drained = Promise.all(live.map((generation) => generation.settled));
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), DRAIN_TIMEOUT_MS).unref(),
    );
    if ((await Promise.race([drained, timeout])) === 'timeout') {
      for (const generation of registry.all()) generation.abort('shutdown');
      await Promise.all(live.map((generation) => generation.settled));
    }
  });
}
