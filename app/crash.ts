import { CRASH_COUNT_PARAM } from './config';

/**
 * A random id for one crash, shown to the user and logged, so a support request can be matched to the
 * log line. getRandomValues rather than randomUUID: the latter is missing outside secure contexts
 * (plain-http self-hosting).
 */
export function newTraceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Crashes already counted for this page load; anything unparsable counts as none. */
export function crashCountOf(search: string): number {
  const value = Number.parseInt(new URLSearchParams(search).get(CRASH_COUNT_PARAM) ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * A repeat crash (spec §2.3: "after more than one crash") means reloading the same address is unlikely
 * to help, so the screen offers the homepage instead.
 */
export function isRepeatCrash(search: string): boolean {
  return crashCountOf(search) >= 1;
}

/** The same address with crashCount incremented, for the reload of 'Try again'. */
export function retryUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.set(CRASH_COUNT_PARAM, String(crashCountOf(url.search) + 1));
  return url.toString();
}
