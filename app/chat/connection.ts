// The tab's chat socket, shared by its questions (issue 13: a socket per question paid its opening and AUTH on the
// way to the first word). It opens while a chat screen holds it, or when a question needs it, and serves one answer
// at a time: a lease lasts from QUERY or RECONNECT to ANSWER_SAVED. A socket that closes while a screen holds it
// opens again, with a growing delay; the answer it was carrying is the lease holder's to follow (stream.ts).
import { ChatCloseCode, type ClientMessageInput, type ServerMessage } from '../../common/api/chat';
import { refreshTokensIfDue } from '../api/client';
import { readTokens } from '../auth/tokens';
import { ChatSocket } from './socket';

const REOPEN_DELAY_MS = 1_000;
const REOPEN_DELAY_MAX_MS = 30_000;

export type LeaseHandlers = {
  /** The socket is open and AUTH sent (again on a refreshed token): send QUERY or RECONNECT through `lease`. */
  onReady(lease: Lease): void;
  onMessage(message: ServerMessage): void;
  /** The socket closed under the lease; the lease is over. */
  onClose(code: number): void;
};

export type Lease = {
  /** False when the socket is not open (or the lease is over). */
  send(message: ClientMessageInput): boolean;
  /** The answer is done: the socket serves the next question. */
  release(): void;
  /** The socket stays this lease's alone (a stopped answer waiting for ANSWER_SAVED); the next question opens another. */
  keep(): void;
  /** Ends the lease and closes its socket: it must not carry another answer's frames to the next question. */
  close(): void;
};

/** One socket of the link: the token it last sent in AUTH, whether it is open, and the lease it serves. */
class Entry {
  ready = false;
  owner: ChatLease | null = null;
  readonly socket: ChatSocket;

  constructor(
    public token: string,
    onClose: (entry: Entry, code: number) => void,
  ) {
    this.socket = new ChatSocket(token, {
      onOpen: () => {
        this.ready = true;
        this.owner?.handlers.onReady(this.owner);
      },
      onMessage: (message) => this.owner?.handlers.onMessage(message),
      onClose: (code) => onClose(this, code),
    });
  }
}

class ChatLease implements Lease {
  entry: Entry | null = null;
  over = false;

  constructor(
    private readonly link: ChatLink,
    readonly token: string,
    readonly handlers: LeaseHandlers,
  ) {}

  send(message: ClientMessageInput): boolean {
    return !this.over && this.entry !== null && this.entry.socket.send(message);
  }

  release(): void {
    if (this.over) return;
    this.end();
    this.link.leaseReleased(this);
  }

  keep(): void {
    if (!this.over && this.entry) this.link.leaseKept(this, this.entry);
  }

  close(): void {
    const entry = this.entry;
    if (!this.over) {
      this.end();
      this.link.leaseClosed(this, entry);
    }
    entry?.socket.close();
  }

  end(): void {
    this.over = true;
    if (this.entry?.owner === this) this.entry.owner = null;
  }
}

async function currentToken(): Promise<string | null> {
  await refreshTokensIfDue().catch(() => undefined);
  return readTokens()?.id_token ?? null;
}

export class ChatLink {
  /** The shared socket (opening or open), or null. */
  private entry: Entry | null = null;
  private current: ChatLease | null = null;
  private readonly waiting: ChatLease[] = [];
  private holders = 0;
  private reopenTimer: ReturnType<typeof setTimeout> | null = null;
  private reopenDelayMs = REOPEN_DELAY_MS;

  /** A chat screen is shown: open the socket now, so its first question finds it ready. Returns the release. */
  hold(): () => void {
    this.holders += 1;
    void this.warm();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      // one screen replacing another releases and holds in the same commit: keep the socket across it
      setTimeout(() => this.closeIfIdle());
    };
  }

  /** A lease once the answers before it are done; null when there is no signed-in token. */
  async acquire(handlers: LeaseHandlers): Promise<Lease | null> {
    const token = await currentToken();
    if (!token) return null;
    const lease = new ChatLease(this, token, handlers);
    this.waiting.push(lease);
    this.grant();
    return lease;
  }

  private async warm(): Promise<void> {
    if (this.entry || this.holders === 0) return;
    const token = await currentToken();
    if (token && !this.entry && this.holders > 0) this.open(token);
  }

  private grant(): void {
    if (this.current) return;
    // a lease given up while it waited (its answer stopped or left the view) is skipped
    let lease = this.waiting.shift();
    while (lease?.over) lease = this.waiting.shift();
    if (!lease) return;
    this.current = lease;
    const entry = this.entry ?? this.open(lease.token);
    if (entry.token !== lease.token) {
      entry.socket.reauthenticate(lease.token);
      entry.token = lease.token;
    }
    entry.owner = lease;
    lease.entry = entry;
    if (entry.ready) lease.handlers.onReady(lease);
  }

  private open(token: string): Entry {
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.reopenTimer = null;
    const entry = new Entry(token, (closed, code) => this.closed(closed, code));
    this.entry = entry;
    return entry;
  }

  private closed(entry: Entry, code: number): void {
    const pooled = this.entry === entry;
    if (pooled) this.entry = null;
    const owner = entry.owner;
    if (owner) {
      owner.end();
      if (this.current === owner) this.current = null;
      owner.handlers.onClose(code);
    }
    this.grant();
    // a refused member or one with too many sockets would only be refused again
    if (pooled && code !== ChatCloseCode.unauthorized && code !== ChatCloseCode.tooManySockets) {
      this.scheduleReopen();
    }
  }

  private scheduleReopen(): void {
    if (this.entry || this.reopenTimer || this.holders === 0) return;
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = null;
      void this.warm();
    }, this.reopenDelayMs);
    this.reopenDelayMs = Math.min(REOPEN_DELAY_MAX_MS, this.reopenDelayMs * 2);
  }

  leaseReleased(lease: ChatLease): void {
    if (this.current === lease) {
      this.current = null;
      // an answer went through: the socket works, so a later drop starts again from the short delay
      this.reopenDelayMs = REOPEN_DELAY_MS;
    } else this.forget(lease);
    this.grant();
    this.closeIfIdle();
  }

  leaseKept(lease: ChatLease, entry: Entry): void {
    if (this.entry === entry) this.entry = null;
    if (this.current === lease) this.current = null;
    this.grant();
    void this.warm();
  }

  leaseClosed(lease: ChatLease, entry: Entry | null): void {
    if (entry && this.entry === entry) this.entry = null;
    if (this.current === lease) this.current = null;
    else this.forget(lease);
    this.grant();
    void this.warm();
  }

  /** A lease given up before its turn leaves the queue. */
  private forget(lease: ChatLease): void {
    const index = this.waiting.indexOf(lease);
    if (index >= 0) this.waiting.splice(index, 1);
  }

  private closeIfIdle(): void {
    if (this.holders > 0 || this.current || this.waiting.length > 0 || !this.entry) return;
    const entry = this.entry;
    this.entry = null;
    entry.socket.close();
  }
}

/** The tab's one chat link. */
export const chatLink = new ChatLink();
