// Per-connection request limits: a small semaphore for concurrency and a token bucket for requests per interval.
// Vendors publish both kinds (Slack: tiers per minute; Notion: 3 requests/s; many: N parallel requests), and
// staying under them beats discovering them through 429s, which some vendors punish with long lock-outs.
import { abortable, type Clock } from './clock';
import { RateLimitedError } from './errors';

export interface RateLimit {
  /** Requests allowed per interval. */
  readonly requests: number;
  readonly intervalMs: number;
  /** Requests that may go back to back after a quiet spell; defaults to `requests` (a fixed-window allowance). */
  readonly burst?: number;
}

export interface RequestLimits {
  /** Requests in flight at once on this connection. */
  readonly concurrency?: number;
  readonly rate?: RateLimit;
}

export const DEFAULT_CONCURRENCY = 4;

export class Semaphore {
  #available: number;
  readonly #waiters: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`concurrency must be a positive integer: ${max}`);
    this.#available = max;
  }

  get inUse(): number {
    return this.max - this.#available;
  }

  /** Resolves with a release function once a slot is free; waiters are served first come, first served. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#available > 0) {
      this.#available -= 1;
      return this.#releaser();
    }
    return new Promise<() => void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.#releaser());
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(grant);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(grant);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot overtake it.
      if (next) next();
      else this.#available += 1;
    };
  }
}

/** Continuous refill: a token every `intervalMs / requests`, at most `burst` saved up. */
export class TokenBucket {
  readonly #msPerToken: number;
  readonly #burst: number;
  #tokens: number;
  #refilledAt: number;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    rate: RateLimit,
    private readonly clock: Clock,
  ) {
    if (!(rate.requests > 0) || !(rate.intervalMs > 0))
      throw new RangeError('rate needs requests and intervalMs > 0');
    this.#msPerToken = rate.intervalMs / rate.requests;
    this.#burst = Math.max(1, rate.burst ?? rate.requests);
    this.#tokens = this.#burst;
    this.#refilledAt = clock.now();
  }

  /** Waits for a token. Callers queue in order, so no caller starves behind luckier ones. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#waitForToken(signal));
    this.#queue = turn.catch(() => undefined);
    return abortable(turn, signal);
  }

  async #waitForToken(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      this.#refill();
      // The epsilon absorbs float drift from fractional token intervals (1000 ms / 3 requests).
      if (this.#tokens >= 1 - 1e-9) {
        this.#tokens = Math.max(0, this.#tokens - 1);
        return;
      }
      await this.clock.sleep(Math.ceil((1 - this.#tokens) * this.#msPerToken), signal);
    }
  }

  #refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.#refilledAt);
    this.#tokens = Math.min(this.#burst, this.#tokens + elapsed / this.#msPerToken);
    this.#refilledAt = now;
  }
}

/**
 * Everything that paces one connection's requests: the semaphore, the bucket and a shared pause. A 429 on one
 * request pauses them all until the source's reset time, instead of letting the other in-flight requests each
 * collect a 429 of their own. The engine keeps one limiter per connection and hands it to every context.
 */
export class RequestLimiter {
  readonly #semaphore: Semaphore;
  readonly #bucket: TokenBucket | undefined;
  #pausedUntil = 0;

  constructor(
    limits: RequestLimits,
    private readonly clock: Clock,
  ) {
    this.#semaphore = new Semaphore(limits.concurrency ?? DEFAULT_CONCURRENCY);
    this.#bucket = limits.rate ? new TokenBucket(limits.rate, clock) : undefined;
  }

  get inFlight(): number {
    return this.#semaphore.inUse;
  }

  /** Holds every request of the connection until `untilMs` (epoch ms); a later pause wins over an earlier one. */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
  }

  /**
   * Waits for a slot, the pause and a token, in that order, so tokens are spent just before a request leaves.
   * A pause longer than `maxWaitMs` is not waited out: the caller gets a RateLimitedError to reschedule with,
   * because a worker sleeping for many minutes looks exactly like a stuck sync.
   */
  async acquire(signal: AbortSignal | undefined, maxWaitMs: number): Promise<() => void> {
    const release = await this.#semaphore.acquire(signal);
    try {
      const pause = this.#pausedUntil - this.clock.now();
      if (pause > maxWaitMs) throw new RateLimitedError(pause);
      if (pause > 0) await this.clock.sleep(pause, signal);
      await this.#bucket?.take(signal);
      return release;
    } catch (error) {
      release();
      throw error;
    }
  }
}

/**
 * Limiters by key, each made on first use with the limits of whoever asked first. The engine keys them by org and
 * vendor, so all of an org's connections of one vendor share its allowance and its 429 pauses, as the vendor
 * counts them (per workspace or tenant), instead of each connection spending the whole allowance on its own.
 */
export class LimiterPool {
  readonly #limiters = new Map<string, RequestLimiter>();

  constructor(private readonly clock: Clock) {}

  limiterFor(key: string, limits: RequestLimits): RequestLimiter {
    let limiter = this.#limiters.get(key);
    if (!limiter) {
      limiter = new RequestLimiter(limits, this.clock);
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }
}
