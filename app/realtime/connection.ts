// The tab's one realtime socket (/_realtime; protocol in common/api/realtime.ts). It opens while any screen listens
// to a channel and closes when none does; it sends AUTH first, then SUBSCRIBE for every channel listened to, and
// again for all of them after a reconnect. A dropped socket is opened again after an exponential back-off with
// jitter (so a restarted server is not met by every tab at once), with a fresh token. On window focus the token is
// refreshed when due and sent again in AUTH, which has the server check it and the member again (spec §4.4: live
// subscriptions re-subscribe on focus, or the page reloads when there is no token). Messages of 50 KB or more come
// as CHUNK frames, joined here by index.
import {
  REALTIME_SOCKET_PATH,
  chunkFrameSchema,
  realtimeServerMessageSchema,
  type ChannelEvents,
  type RealtimeChannel,
  type RealtimeClientMessage,
  type RealtimeServerMessage,
} from '../../common/api/realtime';
import { GRAPH_WS_TIMEOUT_MS } from '../../common/limits';
import { Reassembler } from '../../common/realtime-framing';
import { refreshTokensIfDue } from '../api/client';
import { readTokens, subscribeTokens } from '../auth/tokens';

export const RECONNECT_DELAY_MS = 1_000;
export const RECONNECT_DELAY_MAX_MS = 30_000;

/** The wait before reconnect attempt `attempt` (0 first): doubling up to the cap, then 50–100 % of it at random. */
export function reconnectDelay(attempt: number, random: number = Math.random()): number {
  const ceiling = Math.min(RECONNECT_DELAY_MAX_MS, RECONNECT_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random / 2));
}

/** The events of a channel's kind. */
export type EventOf<C extends RealtimeChannel> = ChannelEvents[C extends 'user' | 'notifications'
  ? C
  : 'topic'];

export type ChannelListener<C extends RealtimeChannel = RealtimeChannel> = {
  onEvent(event: EventOf<C>): void;
  /** Events may have been missed (the socket was down, or access changed): read afresh what the channel tells of. */
  onResync?(): void;
};

/**
 * Turns one socket frame into a server message: whole, or once the last CHUNK of one is in. Null for a frame that
 * completes nothing or is not ours.
 */
export function readFrame(data: unknown, reassembler: Reassembler): RealtimeServerMessage | null {
  if (typeof data !== 'string') return null;
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  };
  let json = parse(data);
  const frame = chunkFrameSchema.safeParse(json);
  if (frame.success) {
    const whole = reassembler.add(frame.data);
    if (whole === null) return null;
    json = parse(whole);
  }
  const message = realtimeServerMessageSchema.safeParse(json);
  return message.success ? message.data : null;
}

function socketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${REALTIME_SOCKET_PATH}`;
}

class RealtimeLink {
  private socket: WebSocket | null = null;
  private token: string | null = null;
  /** Channels the server has confirmed on the current socket. */
  private readonly confirmed = new Set<RealtimeChannel>();
  private readonly listeners = new Map<RealtimeChannel, Set<ChannelListener>>();
  private attempt = 0;
  /** A socket was open before: a new one may have missed events. */
  private hadSocket = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private reassembler = new Reassembler();
  private stopWatching: (() => void) | null = null;

  listen<C extends RealtimeChannel>(channel: C, listener: ChannelListener<C>): () => void {
    const set = this.listeners.get(channel) ?? new Set<ChannelListener>();
    const entry = listener as unknown as ChannelListener;
    set.add(entry);
    const first = set.size === 1;
    this.listeners.set(channel, set);
    this.watch();
    if (!this.socket && !this.reconnectTimer) void this.open();
    else if (first) this.send({ type: 'SUBSCRIBE', channel });
    return () => {
      set.delete(entry);
      if (set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      this.confirmed.delete(channel);
      this.send({ type: 'UNSUBSCRIBE', channel });
      // one screen replacing another lets go and listens again in the same commit: keep the socket across it
      setTimeout(() => this.closeIfUnused());
    };
  }

  private send(message: RealtimeClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private async open(): Promise<void> {
    await refreshTokensIfDue().catch(() => undefined);
    const token = readTokens()?.id_token ?? null;
    if (!token || this.socket || this.listeners.size === 0) return;
    this.token = token;
    this.reassembler = new Reassembler();
    const socket = new WebSocket(socketUrl());
    this.socket = socket;
    // spec §7.2: a live-data socket that does not open within 20 s is given up and opened again
    const openTimer = setTimeout(() => socket.close(), GRAPH_WS_TIMEOUT_MS);
    socket.addEventListener('open', () => {
      clearTimeout(openTimer);
      socket.send(JSON.stringify({ type: 'AUTH', token } satisfies RealtimeClientMessage));
      for (const channel of this.listeners.keys()) this.send({ type: 'SUBSCRIBE', channel });
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      const message = readFrame(event.data, this.reassembler);
      if (message) this.receive(message);
    });
    socket.addEventListener('close', () => {
      clearTimeout(openTimer);
      if (this.socket !== socket) return;
      this.socket = null;
      this.confirmed.clear();
      this.scheduleReconnect();
    });
  }

  private receive(message: RealtimeServerMessage): void {
    switch (message.type) {
      case 'READY':
        this.attempt = 0;
        return;
      case 'SUBSCRIBED': {
        const again = this.hadSocket && !this.confirmed.has(message.channel);
        this.confirmed.add(message.channel);
        if (again) this.each(message.channel, (listener) => listener.onResync?.());
        return;
      }
      case 'UNSUBSCRIBED':
        this.confirmed.delete(message.channel);
        // access lost: what the screen shows of the topic must be read again (and is refused, if it is gone)
        if (message.reason === 'ACCESS_LOST') this.each(message.channel, (listener) => listener.onResync?.());
        return;
      case 'EVENT':
        this.each(message.channel, (listener) => listener.onEvent(message.event));
        return;
      case 'ERROR':
        if (message.channel) this.each(message.channel, (listener) => listener.onResync?.());
        else console.warn('realtime:', message.code, message.message);
        return;
    }
  }

  private each(channel: RealtimeChannel, call: (listener: ChannelListener) => void): void {
    for (const listener of [...(this.listeners.get(channel) ?? [])]) call(listener);
  }

  private scheduleReconnect(): void {
    if (this.listeners.size === 0 || this.reconnectTimer) return;
    this.hadSocket = true;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.open();
    }, reconnectDelay(this.attempt));
    this.attempt += 1;
  }

  private closeIfUnused(): void {
    if (this.listeners.size > 0) return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.confirmed.clear();
    this.hadSocket = false;
    this.attempt = 0;
    socket?.close(1000);
    this.stopWatching?.();
    this.stopWatching = null;
  }

  /** AUTH again on focus and with every new token; no token on focus means signed out: reload (spec §4.4). */
  private watch(): void {
    if (this.stopWatching) return;
    const reauthenticate = () => {
      const token = readTokens()?.id_token ?? null;
      if (token && this.socket?.readyState === WebSocket.OPEN) {
        this.token = token;
        this.send({ type: 'AUTH', token });
      }
    };
    const onFocus = () => {
      void refreshTokensIfDue()
        .catch(() => undefined)
        .then(() => {
          if (!readTokens()) window.location.reload();
          else reauthenticate();
        });
    };
    const onTokens = () => {
      if (readTokens()?.id_token !== this.token) reauthenticate();
    };
    window.addEventListener('focus', onFocus);
    const stopTokens = subscribeTokens(onTokens);
    this.stopWatching = () => {
      window.removeEventListener('focus', onFocus);
      stopTokens();
    };
  }
}

/** The tab's realtime link: every screen listens through it, so a tab holds one socket. */
export const realtimeLink = new RealtimeLink();
