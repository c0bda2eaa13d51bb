import type { z } from 'zod';
import { loginTokensSchema } from '../../common/api/session';
import type { LoginTokens } from '../../common/api/session';
import { FETCH_TIMEOUT_MS, TOKEN_REFRESH_WINDOW_MS } from '../../common/limits';
import { auth as authStrings } from '../../common/strings';
import { clearTokens, readTokens, writeTokens } from '../auth/tokens';
import { notifyFailure } from '../components/toast';
import { BadRequestError, InvalidResponseError, NetworkError, NotFoundError, RequestError } from './errors';

/** Every call of the SPA goes to the versioned gateway of our own origin. */
export const API_BASE = '/api/v1';

/** Spec §9: fetch helper time-out, 8000 ms by default. */
export const DEFAULT_TIMEOUT_MS = FETCH_TIMEOUT_MS;

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  /** The contract of the answer; a body that does not match it throws InvalidResponseError. */
  schema: z.ZodType<T>;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Entries that are null or undefined are left out of the address. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  timeoutMs?: number;
  /** Cancellation by the caller (e.g. TanStack Query); rethrown as the AbortError it is, not as a failure. */
  signal?: AbortSignal;
  /** Send the bearer id token when one is stored, refreshing it first when due. Default true. */
  auth?: boolean;
}

export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${API_BASE}/${path.replace(/^\/+/, '')}${qs ? `?${qs}` : ''}`;
}

/** The one way the SPA talks to the API: bearer token, time-out, typed errors, validated answer. */
export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const {
    schema,
    method = 'GET',
    query,
    body,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    signal,
    auth = true,
  } = options;
  const url = apiUrl(path, query);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (auth) await refreshTokensIfDue();
  const tokens = auth ? readTokens() : null;
  if (tokens) headers.authorization = `Bearer ${tokens.id_token}`;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onCallerAbort();
  else signal?.addEventListener('abort', onCallerAbort, { once: true });

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    // Read inside the try: a time-out can also strike while the body is still streaming in.
    text = await response.text();
  } catch (error) {
    if (timedOut) throw new NetworkError(`${method} ${url} timed out after ${timeoutMs} ms`, true);
    if (signal?.aborted) throw error;
    throw new NetworkError(`${method} ${url} failed: network error`, false, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }

  const json = parseJson(text);
  if (!response.ok) throw errorFor(response.status, json);

  const parsed = schema.safeParse(response.status === 204 || text === '' ? undefined : json);
  if (!parsed.success) {
    throw new InvalidResponseError(`${method} ${url}: unexpected response shape`, path, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest(path, { ...options, method: 'GET' }),
  post: <T>(path: string, options: Omit<RequestOptions<T>, 'method'>) =>
    apiRequest(path, { ...options, method: 'POST' }),
  put: <T>(path: string, options: Omit<RequestOptions<T>, 'method'>) =>
    apiRequest(path, { ...options, method: 'PUT' }),
  patch: <T>(path: string, options: Omit<RequestOptions<T>, 'method'>) =>
    apiRequest(path, { ...options, method: 'PATCH' }),
  delete: <T>(path: string, options: Omit<RequestOptions<T>, 'method'>) =>
    apiRequest(path, { ...options, method: 'DELETE' }),
};

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorFor(status: number, body: unknown): Error {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const message =
    typeof fields.message === 'string'
      ? fields.message
      : typeof body === 'string' && body
        ? body
        : `HTTP ${status}`;
  if (status === 404) return new NotFoundError(message, code);
  if (status === 400) return new BadRequestError(message, code ?? 'BAD_REQUEST');
  return new RequestError(message, status, code);
}

// ---------------------------------------------------------------------------------------------
// Token refresh (spec §4.4): before a request, and when the window regains focus, tokens with less than
// 20 minutes left are exchanged for new ones. The refresh token rotates and presenting a spent one ends the
// whole session, so one refresh runs at a time: in this tab (a shared promise) and across tabs (a Web Lock,
// re-reading the stored tokens once held, since another tab may have refreshed meanwhile).
// ---------------------------------------------------------------------------------------------

const REFRESH_LOCK = 'scout.token-refresh';
let refreshing: Promise<void> | null = null;

export function isRefreshDue(tokens: Pick<LoginTokens, 'expires_at'>, now: number): boolean {
  return tokens.expires_at - now < TOKEN_REFRESH_WINDOW_MS;
}

export function refreshTokensIfDue(): Promise<void> {
  const tokens = readTokens();
  if (!tokens || !isRefreshDue(tokens, Date.now())) return Promise.resolve();
  refreshing ??= withRefreshLock(refreshStoredTokens).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function withRefreshLock(run: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK, () => run()).then(() => undefined) : run();
}

/** A refusal of the refresh token itself, as opposed to a server or network hiccup that a retry may get past. */
function refusesSession(error: unknown): boolean {
  if (error instanceof BadRequestError) return true;
  return error instanceof RequestError && (error.status === 401 || error.status === 403);
}

async function refreshStoredTokens(): Promise<void> {
  const tokens = readTokens();
  if (!tokens || !isRefreshDue(tokens, Date.now())) return;
  try {
    const next = await apiRequest('auth/token-refresh', {
      method: 'POST',
      auth: false,
      body: { refresh_token: tokens.refresh_token },
      schema: loginTokensSchema,
    });
    writeTokens(next);
  } catch (error) {
    // Unreachable or failing server: keep the tokens; while they last requests work, after that they answer 401.
    if (!refusesSession(error)) return;
    // Signed out or in again elsewhere meanwhile: the stored tokens are not the ones that were refused.
    if (readTokens()?.refresh_token !== tokens.refresh_token) return;
    clearTokens();
    notifyFailure(authStrings.TOKEN_REFRESH_FAILED);
  }
}
