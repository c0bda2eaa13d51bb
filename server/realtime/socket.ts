/**
 * The realtime socket /_realtime (spec shell-and-account §4.4, §4.7, §7.6; protocol in common/api/realtime.ts).
 *
 * - The first message must be AUTH with the bearer id token, verified as the HTTP guard verifies a header; anything
 *   else first, a bad token, or silence for AUTH_TIMEOUT_MS closes with 4401. A later AUTH (the app sends one on
 *   window focus, and with every refreshed token) must name the same member, and re-checks every topic held.
 * - The socket closes with 4401 when its token runs out (the app reconnects with a fresh one), and when the member is
 *   blocked or their session revoked: checked on every AUTH and every REVERIFY_MS.
 * - `user` and `notifications` are the socket's own member's. `topic:{id}` needs live topics on for the org (the
 *   realtimeMultiplayer flag) and the member to be able to view the topic (server/policies/topics.ts): checked on
 *   SUBSCRIBE, again whenever the topic changes or a message is
 *   posted, and at least every TOPIC_ACCESS_RECHECK_MS while events flow; once lost, events stop and the client is
 *   told UNSUBSCRIBED (ACCESS_LOST). An answer's text goes only to readers who may read all its sources.
 * - A server message of REALTIME_CHUNK_BYTES or more goes as CHUNK frames (common/realtime-framing.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  REALTIME_CHANNELS_PER_SOCKET_MAX,
  REALTIME_CLIENT_MESSAGE_MAX_BYTES,
  REALTIME_SOCKET_PATH,
  REALTIME_SOCKETS_PER_USER_MAX,
  RealtimeCloseCode,
  RealtimeCloseReason,
  RealtimeErrorMessage,
  realtimeClientMessageSchema,
  topicIdOf,
  type ChunkFrame,
  type RealtimeChannel,
  type RealtimeClientMessage,
  type RealtimeErrorCode,
  type RealtimeServerMessage,
  type TopicEvent,
} from '../../common/api/realtime';
import { parseRequest } from '../../common/api/input';
import { parseFlags } from '../../common/flags';
import { REALTIME_CHUNK_BYTES } from '../../common/limits';
import { splitUtf8 } from '../../common/realtime-framing';
import { authenticateToken } from '../auth/guard';
import { idTokenExpiresAt } from '../auth/tokens';
import { answerViewFor } from '../chat/follow';
import type { Viewer } from '../context';
import { canViewTopic } from '../policies/topics';
import { loadTopic, loadTopicOrg } from '../topics/access';
import { RealtimeHub } from './hub';

const HEARTBEAT_MS = 30_000;
const AUTH_TIMEOUT_MS = 10_000;
/** Blocked members and revoked sessions lose an idle socket within this. */
const REVERIFY_MS = 60_000;
/** A topic's access is read again at least this often while its events flow (a managed bot's admins change…). */
export const TOPIC_ACCESS_RECHECK_MS = 5_000;

type Subscription = { stop(): void; recheck(): Promise<void> };

class RealtimeConnection {
  private viewer: Viewer | null = null;
  private token = '';
  private queue: Promise<void> = Promise.resolve();
  private readonly subscriptions = new Map<RealtimeChannel, Subscription>();
  private alive = true;
  private closed = false;
  private frameCounter = 0;
  private expiryTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly reverify: NodeJS.Timeout;
  private readonly authTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    readonly request: FastifyRequest,
    private readonly hub: RealtimeHub,
    private readonly sockets: Map<string, Set<WebSocket>>,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.reverify = setInterval(() => this.enqueue(() => this.recheckToken()), REVERIFY_MS);
    this.reverify.unref();
    this.authTimer = setTimeout(
      () => this.close(RealtimeCloseCode.unauthorized, RealtimeCloseReason.TOKENS_NOT_FOUND),
      AUTH_TIMEOUT_MS,
    );
    this.authTimer.unref();
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      const raw = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data as ArrayBuffer);
      if (raw.length > REALTIME_CLIENT_MESSAGE_MAX_BYTES) {
        this.close(RealtimeCloseCode.messageTooBig, '');
        return;
      }
      const text = isBinary ? null : raw.toString('utf8');
      this.enqueue(() => this.receive(text));
    });
    socket.on('close', () => this.onClose());
    socket.on('error', (error) => this.request.log.debug({ err: error }, 'realtime socket error'));
  }

  get log() {
    return this.request.log;
  }

  /** Messages and checks of one socket run one at a time, in order. */
  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      this.log.error({ err: error }, 'realtime socket message failed');
      this.error('INTERNAL', RealtimeErrorMessage.INTERNAL);
    });
  }

  /** Sends one server message: whole under REALTIME_CHUNK_BYTES, else in CHUNK frames (spec §7.6). */
  send(message: RealtimeServerMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    const text = JSON.stringify(message);
    if (Buffer.byteLength(text) < REALTIME_CHUNK_BYTES) {
      this.socket.send(text);
      return;
    }
    const pieces = splitUtf8(text, REALTIME_CHUNK_BYTES);
    const id = String(++this.frameCounter);
    pieces.forEach((data, index) => {
      const frame: ChunkFrame = { type: 'CHUNK', id, index, count: pieces.length, data };
      this.socket.send(JSON.stringify(frame));
    });
  }

  private error(code: RealtimeErrorCode, message: string, channel?: RealtimeChannel): void {
    this.send({ type: 'ERROR', code, message, ...(channel ? { channel } : {}) });
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

  private parse(text: string | null): RealtimeClientMessage | { invalid: string } {
    if (text === null) return { invalid: RealtimeErrorMessage.NOT_JSON_TEXT };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { invalid: RealtimeErrorMessage.NOT_JSON };
    }
    const parsed = parseRequest(realtimeClientMessageSchema, json, 'message');
    return parsed.success ? parsed.data : { invalid: parsed.message };
  }

  private async receive(text: string | null): Promise<void> {
    if (this.closed) return;
    const message = this.parse(text);
    if (!this.viewer) {
      if ('invalid' in message || message.type !== 'AUTH') {
        this.close(RealtimeCloseCode.unauthorized, RealtimeCloseReason.TOKENS_NOT_FOUND);
        return;
      }
      await this.authenticate(message.token);
      return;
    }
    if ('invalid' in message) {
      this.error('INVALID_MESSAGE', message.invalid);
      return;
    }
    switch (message.type) {
      case 'AUTH':
        await this.authenticate(message.token);
        return;
      case 'SUBSCRIBE':
        await this.subscribe(message.channel);
        return;
      case 'UNSUBSCRIBE':
        this.end(message.channel, 'REQUESTED');
        return;
    }
  }

  private async authenticate(token: string): Promise<void> {
    const viewer = await authenticateToken(this.request, token);
    const first = this.viewer === null;
    if (!viewer || (!first && viewer.userId !== this.viewer?.userId)) {
      this.close(RealtimeCloseCode.unauthorized, RealtimeCloseReason.INVALID_TOKEN);
      return;
    }
    if (first) {
      clearTimeout(this.authTimer);
      const open = this.sockets.get(viewer.userId) ?? new Set<WebSocket>();
      if (open.size >= REALTIME_SOCKETS_PER_USER_MAX) {
        this.close(RealtimeCloseCode.tooManySockets, RealtimeCloseReason.TOO_MANY_SOCKETS);
        return;
      }
      open.add(this.socket);
      this.sockets.set(viewer.userId, open);
    }
    this.viewer = viewer;
    this.token = token;
    this.closeAtExpiry(token);
    for (const subscription of this.subscriptions.values()) await subscription.recheck();
    this.send({ type: 'READY' });
  }

  private closeAtExpiry(token: string): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    const expiresAt = idTokenExpiresAt(token);
    if (expiresAt === null) return;
    this.expiryTimer = setTimeout(
      () => this.close(RealtimeCloseCode.unauthorized, RealtimeCloseReason.TOKEN_EXPIRED),
      Math.max(0, expiresAt - Date.now()),
    );
    this.expiryTimer.unref();
  }

  /** A session revoked or a member blocked since AUTH ends the socket. */
  private async recheckToken(): Promise<void> {
    if (!this.viewer || this.closed) return;
    const viewer = await authenticateToken(this.request, this.token);
    if (!viewer) this.close(RealtimeCloseCode.unauthorized, RealtimeCloseReason.INVALID_TOKEN);
    else this.viewer = viewer;
  }

  /**
   * Whether the member may follow the topic now: live topics are on for their org (the realtimeMultiplayer flag)
   * and they may view it (a topic of another org, or none, is simply not theirs).
   */
  async mayFollowTopic(topicId: string): Promise<'yes' | 'off' | 'no'> {
    if (!this.viewer) return 'no';
    const { db } = this.request.server.ctx.store;
    const org = await loadTopicOrg(db, this.viewer.orgId);
    if (!parseFlags(org.flags).realtimeMultiplayer) return 'off';
    const loaded = await loadTopic(db, this.viewer, topicId);
    return loaded !== null && canViewTopic(loaded.topic, loaded.relation) ? 'yes' : 'no';
  }

  private async subscribe(channel: RealtimeChannel): Promise<void> {
    const viewer = this.viewer!;
    if (this.subscriptions.has(channel)) {
      this.send({ type: 'SUBSCRIBED', channel });
      return;
    }
    if (this.subscriptions.size >= REALTIME_CHANNELS_PER_SOCKET_MAX) {
      this.error('TOO_MANY_CHANNELS', RealtimeErrorMessage.TOO_MANY_CHANNELS, channel);
      return;
    }
    const topicId = topicIdOf(channel);
    if (topicId === null) {
      const kind = channel === 'user' ? 'user' : 'notifications';
      const stop = this.hub.subscribe(viewer.orgId, { kind, userId: viewer.userId }, (event) =>
        this.send({ type: 'EVENT', channel, event }),
      );
      this.subscriptions.set(channel, { stop, recheck: async () => {} });
    } else {
      const may = await this.mayFollowTopic(topicId);
      if (may === 'off') {
        this.error('LIVE_TOPICS_OFF', RealtimeErrorMessage.LIVE_TOPICS_OFF, channel);
        return;
      }
      // the same answer for a topic that does not exist as for one the member may not view
      if (may === 'no') {
        this.error('NOT_FOUND', RealtimeErrorMessage.NO_SUCH_TOPIC, channel);
        return;
      }
      this.subscriptions.set(channel, new TopicSubscription(this, viewer, channel, topicId, this.hub));
    }
    this.send({ type: 'SUBSCRIBED', channel });
  }

  /** Ends a subscription; the client is told why (nothing is said for one it never had). */
  end(channel: RealtimeChannel, reason: 'REQUESTED' | 'ACCESS_LOST'): void {
    const subscription = this.subscriptions.get(channel);
    if (subscription) {
      subscription.stop();
      this.subscriptions.delete(channel);
    }
    if (subscription || reason === 'REQUESTED') this.send({ type: 'UNSUBSCRIBED', channel, reason });
  }

  get currentViewer(): Viewer | null {
    return this.viewer;
  }

  private onClose(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearInterval(this.reverify);
    clearTimeout(this.authTimer);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    for (const subscription of this.subscriptions.values()) subscription.stop();
    this.subscriptions.clear();
    if (this.viewer) {
      const open = this.sockets.get(this.viewer.userId);
      open?.delete(this.socket);
      if (open?.size === 0) this.sockets.delete(this.viewer.userId);
    }
  }
}

/** One socket's hold on a topic channel: passes events on in order, to this reader only what they may see. */
class TopicSubscription implements Subscription {
  private chain: Promise<void> = Promise.resolve();
  private checkedAt = Date.now();
  private ended = false;
  /** Per answer: whether its text is withheld from this reader (decided once, at its first chunk). */
  private readonly withheld = new Map<string, Promise<boolean>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly connection: RealtimeConnection,
    viewer: Viewer,
    private readonly channel: RealtimeChannel,
    private readonly topicId: string,
    hub: RealtimeHub,
  ) {
    this.unsubscribe = hub.subscribe(viewer.orgId, { kind: 'topic', topicId }, (event) => {
      if (event.type === 'topics.changed' || event.type === 'notification.created') return;
      this.chain = this.chain
        .then(() => this.pass(event))
        .catch((error: unknown) => connection.log.warn({ err: error }, 'a realtime topic event was dropped'));
    });
  }

  private async pass(event: TopicEvent): Promise<void> {
    if (this.ended) return;
    const changes = event.type === 'topic.changed' || event.type === 'message.added';
    if (changes || Date.now() - this.checkedAt >= TOPIC_ACCESS_RECHECK_MS) {
      if (!(await this.stillViewable())) return;
    }
    if (event.type === 'answer.chunk' && (await this.withheldFromReader(event.answerId))) return;
    if (event.type === 'answer.finished') this.withheld.delete(event.answerId);
    if (!this.ended) this.connection.send({ type: 'EVENT', channel: this.channel, event });
  }

  private withheldFromReader(answerId: string): Promise<boolean> {
    let decided = this.withheld.get(answerId);
    if (!decided) {
      const viewer = this.connection.currentViewer;
      decided = viewer
        ? answerViewFor(this.connection.request.server.ctx.store.db, viewer, answerId).then(
            (view) => view?.withheld ?? true,
          )
        : Promise.resolve(true);
      this.withheld.set(answerId, decided);
    }
    return decided;
  }

  private async stillViewable(): Promise<boolean> {
    const viewable = (await this.connection.mayFollowTopic(this.topicId)) === 'yes';
    this.checkedAt = Date.now();
    if (!viewable && !this.ended) this.connection.end(this.channel, 'ACCESS_LOST');
    return viewable;
  }

  async recheck(): Promise<void> {
    await this.stillViewable();
  }

  stop(): void {
    this.ended = true;
    this.unsubscribe();
  }
}

/** Creates the hub (`app.realtime`), joined to the other instances on a PostgreSQL server; closed with the app. */
export async function registerRealtimeHub(app: FastifyInstance): Promise<void> {
  const hub = new RealtimeHub(app.log.child({ module: 'realtime' }));
  await hub.connect(app.ctx.store);
  app.decorate('realtime', hub);
  // A new inbox row reaches the member's open tabs at once (the app polls only as a fallback).
  const stopListening = app.ctx.notifier.onCreated((userId, orgId, unreadCount) =>
    hub.publish(orgId, { kind: 'notifications', userId }, { type: 'notification.created', unreadCount }),
  );
  app.addHook('onClose', () => {
    stopListening();
    return hub.close();
  });
}

/** GET /_realtime; needs the websocket plugin registered (registerChat does). */
export function registerRealtimeSocket(app: FastifyInstance): void {
  const sockets = new Map<string, Set<WebSocket>>();
  app.get(REALTIME_SOCKET_PATH, { websocket: true }, (socket, request) => {
    new RealtimeConnection(socket, request, app.realtime, sockets);
  });
}
