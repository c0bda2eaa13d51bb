// The one HTTP client connectors use (DESIGN §2), on Node's own fetch. It owns what every vendor integration
// otherwise re-learns the hard way: timeouts, retries with back-off, Retry-After, per-connection pacing, typed
// errors, and keeping credentials out of logs and error messages.
import type { z } from 'zod';
import { systemClock, type Clock } from './clock';
import {
  FatalSourceError,
  HttpStatusError,
  InvalidCredentialsError,
  NotFoundError,
  PermissionMismatchError,
  RateLimitedError,
  ResponseTooLargeError,
  TransientError,
  type CredentialName,
} from './errors';
import { RequestLimiter, type RequestLimits } from './limits';
import { silentLogger, type ConnectorLogger } from './logger';
import { allowanceExhausted, isRateLimitResponse, waitFromHeaders } from './rate-limit-headers';

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type Query = Readonly<Record<string, QueryValue>>;

export interface RequestOptions {
  /** GET unless given. */
  readonly method?: string;
  readonly query?: Query;
  /** Added to (and overriding) the client's default headers for this request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body; sets content-type. */
  readonly json?: unknown;
  /** A raw body, for form posts and the like. */
  readonly body?: string | Uint8Array<ArrayBuffer> | URLSearchParams;
  readonly timeoutMs?: number;
  /** `false` for a request that must not be sent twice. */
  readonly retry?: boolean;
  /**
   * 'manual' hands back a 3xx as it came (status and Location) instead of following it, for a caller that must
   * vet each hop itself, as the website crawler does. Default 'follow'.
   */
  readonly redirect?: 'follow' | 'manual';
  /**
   * Stop reading past this many bytes and fail with ResponseTooLargeError (not retried), for a caller that fetches
   * URLs it does not control and must not hold a 2 GB download in memory to learn it is not a web page.
   */
  readonly maxBodyBytes?: number;
}

/** A fully read response: the body is read inside the attempt, so the timeout covers a body that stalls. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
  text(): string;
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly maxAttempts: number;
  /** The back-off cap of the first retry; it doubles per retry and the actual delay is drawn below it. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest wait a source may impose (Retry-After, reset headers) before we hand back a RateLimitedError. */
  readonly maxWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxWaitMs: 60_000,
};

export const DEFAULT_TIMEOUT_MS = 30_000;

/** What a 401 or 403 (that is not a rate limit) means for this vendor. */
export type AuthFailureVerdict =
  | { readonly kind: 'invalidCredentials' }
  | { readonly kind: 'permissionMismatch'; readonly message: string }
  /** Neither: an item the account may not read. Thrown as HttpStatusError so a sync can skip the item. */
  | { readonly kind: 'httpError' }
  /**
   * A throttle the vendor words as a 403 without rate-limit headers (Google's `rateLimitExceeded`): waited out and
   * retried as a 429 is.
   */
  | { readonly kind: 'rateLimited' };

export interface AuthFailure {
  readonly status: 401 | 403;
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly body: string;
}

export type AuthFailureClassifier = (failure: AuthFailure) => AuthFailureVerdict;

export const DEFAULT_PERMISSION_MISMATCH_MESSAGE = 'the connected account lacks a permission this app needs';

/** 401 is bad credentials; 403 is an account without the access the app needs. Connectors refine per vendor. */
export const defaultAuthFailureClassifier: AuthFailureClassifier = (failure) =>
  failure.status === 401
    ? { kind: 'invalidCredentials' }
    : { kind: 'permissionMismatch', message: DEFAULT_PERMISSION_MISMATCH_MESSAGE };

/**
 * An undici dispatcher for Node's fetch (its `dispatcher` option), such as an Agent whose `connect.lookup` vets
 * the address each connection is made to. Opaque here: the client only hands it to fetch.
 */
export type HttpDispatcher = object;

/** What a connector sets on its own client: where the vendor is and how it authenticates. */
export interface HttpClientSettings {
  /** Relative paths resolve under it; absolute URLs must share its origin, so auth headers never leave it. */
  readonly baseUrl?: string;
  /** Sent with every request. Typically `authorization`; never logged. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly classifyAuthFailure?: AuthFailureClassifier;
  /** Named in InvalidCredentialsError ('Incorrect {credential name}. Please try again.'). */
  readonly credentialName?: CredentialName;
  /** Connections go through it instead of fetch's global dispatcher. */
  readonly dispatcher?: HttpDispatcher;
}

/** What the framework sets once per connection and every derived client shares. */
export interface HttpClientOptions extends HttpClientSettings {
  readonly logger?: ConnectorLogger;
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
  /** The jitter source, in [0, 1). */
  readonly random?: () => number;
  /** Shared by all clients of one connection; built from `limits` when absent. */
  readonly limiter?: RequestLimiter;
  readonly limits?: RequestLimits;
}

export interface HttpClient {
  readonly baseUrl: string | undefined;
  request(path: string, options?: RequestOptions): Promise<HttpResponse>;
  /** Requests and parses the body with the caller's schema; a body that does not fit is a FatalSourceError. */
  json<S extends z.ZodType>(path: string, schema: S, options?: RequestOptions): Promise<z.output<S>>;
  /** A client with other settings (base URL, auth) sharing this one's limiter, signal, logger and clock. */
  with(settings: HttpClientSettings): HttpClient;
}

/** Full jitter: a uniform draw below the exponential cap, so retrying clients spread out instead of colliding. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * cap);
}

function isRetryableStatus(status: number): boolean {
  // 501 and 505 say the request can never work; every other 5xx, and 408, may pass on a later try.
  return status === 408 || (status >= 500 && status !== 501 && status !== 505);
}

export function resolveUrl(baseUrl: string | undefined, path: string, query: Query | undefined): URL {
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    url = new URL(path);
    if (baseUrl !== undefined && url.origin !== new URL(baseUrl).origin) {
      // A pagination link or an item URL pointing elsewhere must not receive this client's credentials.
      throw new FatalSourceError(`refusing to send credentials to another origin: ${url.origin}`);
    }
  } else if (baseUrl !== undefined) {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
  } else {
    throw new TypeError(`a relative path needs a baseUrl: ${path}`);
  }
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    const values: readonly (string | number | boolean)[] = Array.isArray(value) ? value : [value];
    for (const item of values) url.searchParams.append(key, String(item));
  }
  return url;
}

/** Later sets win, whatever the case of a name: 'Authorization' replaces 'authorization' instead of joining it. */
function mergeHeaders(
  ...sets: readonly (Readonly<Record<string, string>> | undefined)[]
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set ?? {})) merged[name.toLowerCase()] = value;
  }
  return merged;
}

type Attempt =
  | { readonly kind: 'response'; readonly response: HttpResponse }
  | { readonly kind: 'network'; readonly error: unknown; readonly timedOut: boolean }
  | { readonly kind: 'tooLarge' };

const decoder = new TextDecoder();

/** The whole body, or null as soon as it (as declared, or as read so far) exceeds `maxBytes`. */
export async function readBody(
  response: Response,
  maxBytes: number | undefined,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (maxBytes === undefined || response.body === null) return new Uint8Array(await response.arrayBuffer());
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body.cancel();
    return null;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function errorCode(error: unknown): string {
  // undici reports 'fetch failed' and puts the useful part (ECONNRESET, UND_ERR_SOCKET) in the cause.
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  const code = cause && typeof cause === 'object' && 'code' in cause ? cause.code : undefined;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'unknown';
}

function summariseIssues(error: z.ZodError): string {
  // Paths and messages only: zod's messages name expected types, never the received values.
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Parses a response body with the caller's schema; `where` ('GET /v1/notes') names the call in errors. */
export function parseJsonBody<S extends z.ZodType>(
  response: HttpResponse,
  schema: S,
  where: string,
): z.output<S> {
  let value: unknown;
  try {
    const text = response.text();
    value = text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    throw new FatalSourceError(`${where} did not answer JSON`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new FatalSourceError(`${where} answered an unexpected shape: ${summariseIssues(parsed.error)}`);
  }
  return parsed.data;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const clock = options.clock ?? systemClock;
  const shared = {
    logger: options.logger ?? silentLogger,
    signal: options.signal,
    clock,
    random: options.random ?? Math.random,
    limiter: options.limiter ?? new RequestLimiter(options.limits ?? {}, clock),
  };
  return buildClient(shared, options);
}

type Shared = {
  readonly logger: ConnectorLogger;
  readonly signal: AbortSignal | undefined;
  readonly clock: Clock;
  readonly random: () => number;
  readonly limiter: RequestLimiter;
};

function buildClient(shared: Shared, settings: HttpClientSettings): HttpClient {
  const { logger, signal, clock, limiter } = shared;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...settings.retry };
  const classify = settings.classifyAuthFailure ?? defaultAuthFailureClassifier;
  // Held in this closure only: the client object itself has nothing for a logger to serialise.
  const defaultHeaders = mergeHeaders({ 'user-agent': 'Scout connector' }, settings.headers);

  async function attemptOnce(
    url: URL,
    init: RequestInit,
    timeoutMs: number,
    maxBodyBytes: number | undefined,
  ): Promise<Attempt> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      // `dispatcher` is Node's extension of RequestInit, absent from the DOM typing this project compiles with.
      const options = settings.dispatcher
        ? ({ ...init, signal: combined, dispatcher: settings.dispatcher } as RequestInit)
        : { ...init, signal: combined };
      const response = await fetch(url, options);
      const body = await readBody(response, maxBodyBytes);
      if (body === null) return { kind: 'tooLarge' };
      return {
        kind: 'response',
        response: {
          status: response.status,
          headers: response.headers,
          body,
          text: () => decoder.decode(body),
        },
      };
    } catch (error) {
      signal?.throwIfAborted();
      return { kind: 'network', error, timedOut: timeout.aborted };
    }
  }

  async function request(path: string, requestOptions: RequestOptions = {}): Promise<HttpResponse> {
    const method = (requestOptions.method ?? 'GET').toUpperCase();
    const url = resolveUrl(settings.baseUrl, path, requestOptions.query);
    const where = { method, path: url.pathname };
    let headers: Headers;
    try {
      headers = new Headers(mergeHeaders(defaultHeaders, requestOptions.headers));
    } catch {
      // Node's message quotes the offending value, which is nearly always a credential pasted with a newline.
      throw new InvalidCredentialsError(settings.credentialName);
    }
    let body: RequestInit['body'] = requestOptions.body;
    if (requestOptions.json !== undefined) {
      body = JSON.stringify(requestOptions.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const init: RequestInit = { method, headers, body, redirect: requestOptions.redirect ?? 'follow' };
    const timeoutMs = requestOptions.timeoutMs ?? settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxAttempts = requestOptions.retry === false ? 1 : Math.max(1, policy.maxAttempts);

    for (let attempt = 1; ; attempt += 1) {
      const release = await limiter.acquire(signal, policy.maxWaitMs);
      const startedAt = clock.now();
      let outcome: Attempt;
      try {
        outcome = await attemptOnce(url, init, timeoutMs, requestOptions.maxBodyBytes);
      } finally {
        release();
      }
      const last = attempt >= maxAttempts;

      if (outcome.kind === 'tooLarge') {
        throw new ResponseTooLargeError(method, url.pathname, requestOptions.maxBodyBytes ?? 0);
      }

      if (outcome.kind === 'network') {
        const reason = outcome.timedOut
          ? `timed out after ${timeoutMs} ms`
          : `failed (${errorCode(outcome.error)})`;
        if (last) {
          throw new TransientError(`${method} ${url.pathname} ${reason} after ${attempt} attempts`, {
            cause: outcome.error,
          });
        }
        const delayMs = backoffDelay(attempt, policy, shared.random);
        logger.warn({ ...where, attempt, reason, delayMs }, 'retrying request');
        await clock.sleep(delayMs, signal);
        continue;
      }

      const { response } = outcome;
      const { status } = response;
      logger.debug({ ...where, status, attempt, durationMs: clock.now() - startedAt }, 'response');

      // A 3xx arrives only when fetch did not follow it: a 304 answering a conditional request, or a redirect
      // the caller asked to see (`redirect: 'manual'`).
      if (status >= 200 && status < 400) {
        if (allowanceExhausted(response.headers)) {
          // The source says the next request would be refused: pause before it rather than earn a 429.
          const waitMs = waitFromHeaders(response.headers, clock.now());
          if (waitMs !== undefined) limiter.pauseUntil(clock.now() + waitMs);
        }
        return response;
      }

      const verdict =
        status === 401 || status === 403
          ? classify({ status, ...where, headers: response.headers, body: response.text() })
          : undefined;
      if (isRateLimitResponse(status, response.headers) || verdict?.kind === 'rateLimited') {
        const waitMs =
          waitFromHeaders(response.headers, clock.now()) ?? backoffDelay(attempt, policy, shared.random);
        // The pause holds every request of this connection, not only this one; acquire() waits it out.
        limiter.pauseUntil(clock.now() + waitMs);
        if (last || waitMs > policy.maxWaitMs) {
          throw new RateLimitedError(waitMs, `${method} ${url.pathname} rate limited (${status})`);
        }
        logger.warn({ ...where, attempt, status, delayMs: waitMs }, 'rate limited, waiting');
        continue;
      }

      if (verdict) {
        if (verdict.kind === 'invalidCredentials') throw new InvalidCredentialsError(settings.credentialName);
        if (verdict.kind === 'permissionMismatch') throw new PermissionMismatchError(verdict.message);
        throw new HttpStatusError(status, method, url.pathname, response.text());
      }

      if (status === 404 || status === 410) {
        throw new NotFoundError(status, method, url.pathname, response.text());
      }

      if (!isRetryableStatus(status))
        throw new HttpStatusError(status, method, url.pathname, response.text());

      if (last) {
        throw new TransientError(`${method} ${url.pathname} answered ${status} after ${attempt} attempts`, {
          cause: new HttpStatusError(status, method, url.pathname, response.text()),
        });
      }
      const askedMs = waitFromHeaders(response.headers, clock.now());
      if (askedMs !== undefined) {
        // A 503 with Retry-After speaks for the whole service: hold the connection as for a 429.
        limiter.pauseUntil(clock.now() + askedMs);
        if (askedMs > policy.maxWaitMs) {
          throw new RateLimitedError(askedMs, `${method} ${url.pathname} unavailable (${status})`);
        }
        logger.warn({ ...where, attempt, status, delayMs: askedMs }, 'unavailable, waiting');
        continue;
      }
      const delayMs = backoffDelay(attempt, policy, shared.random);
      logger.warn({ ...where, attempt, status, delayMs }, 'retrying request');
      await clock.sleep(delayMs, signal);
    }
  }

  async function json<S extends z.ZodType>(
    path: string,
    schema: S,
    requestOptions: RequestOptions = {},
  ): Promise<z.output<S>> {
    const headers = mergeHeaders({ accept: 'application/json' }, requestOptions.headers);
    const response = await request(path, { ...requestOptions, headers });
    const method = (requestOptions.method ?? 'GET').toUpperCase();
    return parseJsonBody(
      response,
      schema,
      `${method} ${resolveUrl(settings.baseUrl, path, undefined).pathname}`,
    );
  }

  return {
    baseUrl: settings.baseUrl,
    request,
    json,
    with: (next) =>
      buildClient(shared, { ...settings, ...next, headers: mergeHeaders(settings.headers, next.headers) }),
  };
}
