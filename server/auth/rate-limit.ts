import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { authMessages } from '../../common/api/auth';
import { ApiError } from '../errors';

/**
 * Fixed-window counters kept in this process. With several `scout serve` instances behind a load balancer each
 * counts on its own, so the effective limit is the limit times the number of instances; that still bounds code
 * guessing and mail bombing, which is what these limits are for.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly maxKeys = 100_000) {}

  /**
   * Counts one hit against every key, unless any of them is already at its limit: then nothing is counted and the
   * answer is how long until the latest-resetting full window opens again (ms). A refused request changes nothing.
   */
  take(hits: readonly { key: string; max: number; windowMs: number }[], now = Date.now()): number | null {
    let waitMs = 0;
    for (const { key, max } of hits) {
      const window = this.windows.get(key);
      if (window && window.resetAt > now && window.count >= max)
        waitMs = Math.max(waitMs, window.resetAt - now);
    }
    if (waitMs > 0) return waitMs;
    if (this.windows.size > this.maxKeys) this.sweep(now);
    for (const { key, windowMs } of hits) {
      const window = this.windows.get(key);
      if (window && window.resetAt > now) window.count += 1;
      else this.windows.set(key, { count: 1, resetAt: now + windowMs });
    }
    return null;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * A limit on one route, counted per client address, or per the email the request names from one client address.
 * No limit counts an email across addresses: a stranger could then use it up and lock the owner out.
 */
export type LimitRule = { by: 'address' | 'emailFromAddress'; max: number; windowMs: number };

const MINUTE_MS = 60_000;

/**
 * Codes mailed to one email in a window, whoever asks: a bound on mail bombing that cannot lock the owner out,
 * because asking again never voids a code and every code mailed in the window lives as long as the window: an
 * owner who finds it full has that many live codes in their own inbox.
 */
export const CODES_MAILED_PER_EMAIL = 10;
export const CODES_MAILED_WINDOW_MS = 15 * MINUTE_MS;

/** The sign-in limits (issue "Identity and workspace", abuse rules; issue 11: no lock-out by a stranger). */
export const AUTH_LIMITS = {
  provider: [
    { by: 'address', max: 30, windowMs: MINUTE_MS },
    { by: 'emailFromAddress', max: 30, windowMs: 15 * MINUTE_MS },
  ],
  codeRequest: [
    { by: 'address', max: 20, windowMs: MINUTE_MS },
    { by: 'emailFromAddress', max: 5, windowMs: 15 * MINUTE_MS },
  ],
  confirm: [
    { by: 'address', max: 20, windowMs: MINUTE_MS },
    { by: 'emailFromAddress', max: 10, windowMs: 15 * MINUTE_MS },
  ],
  signUp: [
    { by: 'address', max: 10, windowMs: MINUTE_MS },
    { by: 'emailFromAddress', max: 5, windowMs: 15 * MINUTE_MS },
  ],
  tokenRefresh: [{ by: 'address', max: 60, windowMs: MINUTE_MS }],
  /** Grant exchange, Google and SSO addresses and callbacks. */
  oauth: [{ by: 'address', max: 30, windowMs: MINUTE_MS }],
} as const satisfies Record<string, readonly LimitRule[]>;

/** The email a request names, after the route's schema has normalised it (body first, then query). */
function requestEmail(request: FastifyRequest): string | undefined {
  for (const source of [request.body, request.query]) {
    if (source && typeof source === 'object' && 'email' in source && typeof source.email === 'string') {
      return source.email;
    }
  }
  return undefined;
}

/**
 * A preHandler that answers 429 RATE_LIMITED with Retry-After once a rule's limit is reached. It runs after the
 * schema has validated the input, so the email key is the normalised one, and before the handler changes anything.
 */
export function rateLimit(
  limiter: RateLimiter,
  name: string,
  rules: readonly LimitRule[],
): preHandlerAsyncHookHandler {
  return async (request) => {
    const hits = rules.flatMap((rule) => {
      const email = requestEmail(request);
      const value = rule.by === 'address' ? request.ip : email && `${email} ${request.ip}`;
      return value ? [{ key: `${name}:${rule.by}:${value}`, max: rule.max, windowMs: rule.windowMs }] : [];
    });
    const waitMs = limiter.take(hits);
    if (waitMs !== null) {
      throw new ApiError(429, 'RATE_LIMITED', authMessages.RATE_LIMITED, {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      });
    }
  };
}
