import { setTimeout as delay } from 'node:timers/promises';

/**
 * Time as the SDK sees it. Back-off, Retry-After waits, the rate limiter and `ctx.now()` all read this one
 * seam, so a test can run a minute of back-off in a millisecond without mocking any of our own code.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, { signal }),
};

/** Rejects with the signal's reason when it aborts first; the abandoned promise is left to settle unobserved. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
