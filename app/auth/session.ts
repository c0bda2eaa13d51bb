import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LOGIN_TOKENS_STORAGE_KEY, currentUserSchema } from '../../common/api/session';
import type { CurrentUser } from '../../common/api/session';
import type { FlagName } from '../../common/flags';
import { apiRequest, refreshTokensIfDue } from '../api/client';
import { isUnauthorized } from '../api/errors';
import { clearTokens, notifyTokensChanged, readTokens, useTokens } from './tokens';

export { clearTokens, readTokens, useTokens, writeTokens } from './tokens';

/** How many times a failed user fetch is retried before the splash gives up (not for 401s). */
const USER_FETCH_RETRIES = 2;

/**
 * Keeps this tab in step with sign-in changes made in other tabs. A sign-out elsewhere (the tokens
 * removed, or the whole storage cleared) reloads this tab so no signed-in screen lingers on stale data
 * (spec shell-and-account §4.4). Returns the unsubscribe function.
 */
export function watchTokensAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.storageArea !== window.localStorage) return;
    const ours = event.key === LOGIN_TOKENS_STORAGE_KEY;
    const cleared = event.key === null;
    if (!ours && !cleared) return;
    const removed = cleared || (event.oldValue !== null && event.newValue === null);
    if (removed) window.location.reload();
    else notifyTokensChanged();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** Spec §4.4: coming back to the tab refreshes tokens that are about to run out. Returns the unsubscribe function. */
export function refreshTokensOnFocus(): () => void {
  const onFocus = () => void refreshTokensIfDue();
  window.addEventListener('focus', onFocus);
  return () => window.removeEventListener('focus', onFocus);
}

/**
 * Logout (spec §2.8, §4.4): ends the session on the server, clears local storage and reloads into /login. Clearing
 * the storage is what other tabs see (a storage event), so they reload signed out too. The server call failing
 * (offline, tokens already refused) does not keep anyone signed in here.
 */
export async function logout(): Promise<void> {
  const tokens = readTokens();
  if (tokens?.refresh_token) {
    await apiRequest('auth/logout', {
      method: 'POST',
      auth: false,
      body: { refresh_token: tokens.refresh_token },
      schema: z.unknown(),
    }).catch((error: unknown) => console.warn('logout: the server did not end the session', error));
  }
  try {
    window.localStorage.clear();
  } catch {
    // Storage blocked: there is nothing stored to clear.
  }
  window.location.assign('/login');
}

/** The first part of every current-user query key: invalidating it re-reads the user, whoever is signed in. */
export const CURRENT_USER_QUERY_ROOT = ['currentUser'] as const;

export function currentUserQueryKey(username: string | undefined): readonly unknown[] {
  return [...CURRENT_USER_QUERY_ROOT, username ?? null];
}

/**
 * The signed-in user, fetched once per account. Keyed by username rather than the id token, so a token
 * refresh does not flash the splash again while a switch of account does refetch.
 */
export function useCurrentUser() {
  const tokens = useTokens();
  return useQuery<CurrentUser>({
    queryKey: currentUserQueryKey(tokens?.username),
    enabled: tokens !== null,
    staleTime: 60_000,
    retry: (failures, error) => !isUnauthorized(error) && failures < USER_FETCH_RETRIES,
    queryFn: async ({ signal }) => {
      try {
        return await apiRequest('_fetchData/user', { schema: currentUserSchema, signal });
      } catch (error) {
        // The server no longer accepts these tokens: forget them, which sends guarded routes to /login.
        if (isUnauthorized(error)) clearTokens();
        throw error;
      }
    },
  });
}

/**
 * The current user inside the signed-in tree, where RequireSignedIn has already waited for it.
 * Used anywhere else it is a programming error, and the crash screen says so.
 */
export function useSignedInUser(): CurrentUser {
  const { data } = useCurrentUser();
  if (!data) throw new Error('useSignedInUser() used outside RequireSignedIn');
  return data;
}

/** A flag counts as on only when it is literally true; numeric flags are thresholds, not switches. */
export function isFlagOn(user: CurrentUser, flag: FlagName): boolean {
  return user.flags[flag] === true;
}
