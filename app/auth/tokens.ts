import { useSyncExternalStore } from 'react';
import { LOGIN_TOKENS_STORAGE_KEY, loginTokensSchema } from '../../common/api/session';
import type { LoginTokens } from '../../common/api/session';

// Login tokens live in localStorage so every tab shares one sign-in. This module is the only reader
// and writer of that key; it is apart from session.ts because the API client needs it too.

const listeners = new Set<() => void>();
// useSyncExternalStore needs the same object back while the stored text has not changed.
let cachedRaw: string | null = null;
let cachedTokens: LoginTokens | null = null;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage can be blocked outright (privacy settings, sandboxed frames): then nobody is signed in.
    return null;
  }
}

export function readTokens(): LoginTokens | null {
  const raw = storage()?.getItem(LOGIN_TOKENS_STORAGE_KEY) ?? null;
  if (raw === cachedRaw) return cachedTokens;
  cachedRaw = raw;
  cachedTokens = parseTokens(raw);
  return cachedTokens;
}

function parseTokens(raw: string | null): LoginTokens | null {
  if (raw === null) return null;
  try {
    const parsed = loginTokensSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeTokens(tokens: LoginTokens): void {
  storage()?.setItem(LOGIN_TOKENS_STORAGE_KEY, JSON.stringify(tokens));
  notifyTokensChanged();
}

export function clearTokens(): void {
  storage()?.removeItem(LOGIN_TOKENS_STORAGE_KEY);
  notifyTokensChanged();
}

/** Tells this tab's subscribers; other tabs learn of the change through the browser's storage event. */
export function notifyTokensChanged(): void {
  for (const listener of listeners) listener();
}

export function subscribeTokens(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored tokens, re-rendering when they change in this tab or another. */
export function useTokens(): LoginTokens | null {
  return useSyncExternalStore(subscribeTokens, readTokens, () => null);
}
