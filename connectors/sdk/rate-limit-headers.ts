// Reading how long a source wants us to wait. Retry-After is the standard (RFC 9110: delay-seconds or an
// HTTP-date); vendors add reset headers of their own whose value may be seconds to wait, epoch seconds
// (GitHub's X-RateLimit-Reset) or epoch milliseconds, so the magnitude decides which reading applies.

const RESET_HEADERS = ['ratelimit-reset', 'x-ratelimit-reset', 'x-rate-limit-reset'] as const;
const REMAINING_HEADERS = ['ratelimit-remaining', 'x-ratelimit-remaining', 'x-rate-limit-remaining'] as const;

// Below this a bare number is a delay in seconds; no source asks for a wait of 30 years.
const EPOCH_SECONDS_FLOOR = 1e9;
const EPOCH_MILLIS_FLOOR = 1e12;

const NUMBER = /^\s*\d+(\.\d+)?\s*$/;

function delayFromDate(value: string, nowMs: number): number | undefined {
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** `Retry-After`: delay-seconds or an HTTP-date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (NUMBER.test(value)) return Math.round(Number(value) * 1000);
  return delayFromDate(value, nowMs);
}

/** A reset header: seconds to wait, epoch seconds, epoch milliseconds or a date, in ms from now. */
export function parseReset(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (!NUMBER.test(value)) return delayFromDate(value, nowMs);
  const n = Number(value);
  if (n >= EPOCH_MILLIS_FLOOR) return Math.max(0, Math.round(n - nowMs));
  if (n >= EPOCH_SECONDS_FLOOR) return Math.max(0, Math.round(n * 1000 - nowMs));
  return Math.round(n * 1000);
}

/** The IETF draft's structured `RateLimit: "default";r=0;t=30` carries the reset as `t` seconds. */
function parseStructuredRateLimit(value: string | null): number | undefined {
  const match = value === null ? null : /;\s*t=(\d+)/.exec(value);
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1000;
}

/** How long the source asks us to wait, from the first header that says; undefined when none does. */
export function waitFromHeaders(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(headers.get('retry-after'), nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const resetAfter = headers.get('x-ratelimit-reset-after');
  if (resetAfter !== null && NUMBER.test(resetAfter)) return Math.round(Number(resetAfter) * 1000);
  for (const name of RESET_HEADERS) {
    const reset = parseReset(headers.get(name), nowMs);
    if (reset !== undefined) return reset;
  }
  return parseStructuredRateLimit(headers.get('ratelimit'));
}

/** The response says the allowance is spent (`X-RateLimit-Remaining: 0`), whatever its status. */
export function allowanceExhausted(headers: Headers): boolean {
  if (/;\s*r=0(\s|;|,|$)/.test(headers.get('ratelimit') ?? '')) return true;
  return REMAINING_HEADERS.some((name) => headers.get(name)?.trim() === '0');
}

/**
 * A rate-limit refusal: 429, or a 403 that is really one (GitHub answers an exhausted allowance with 403 and
 * `X-RateLimit-Remaining: 0`, secondary limits with 403 and Retry-After). Telling these apart from a real 403
 * keeps a throttled sync from being reported as a permission problem.
 */
export function isRateLimitResponse(status: number, headers: Headers): boolean {
  if (status === 429) return true;
  return status === 403 && (headers.has('retry-after') || allowanceExhausted(headers));
}
