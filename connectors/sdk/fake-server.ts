// The kit for vendor fakes (CONVENTIONS: connectors are tested against a real HTTP server on 127.0.0.1). Declare
// routes, serve paginated fixtures, require a bearer token, and inject the failures real APIs produce: 5xx, 429
// with Retry-After, requests that hang, connections that drop. Every request is logged for assertions, with the
// number in flight when it arrived, so tests can prove the client's concurrency limit from the server's side.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  /** Values of `:name` segments of the route's pattern. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** `http://127.0.0.1:<port>`, for absolute links. */
  readonly origin: string;
  json(): unknown;
}

export interface FakeResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON; wins over `body`. */
  readonly json?: unknown;
  /** Bytes for a file's content (a PDF a download answers). */
  readonly body?: string | Uint8Array;
  /** Answer after this long, to hold requests in flight. */
  readonly delayMs?: number;
}

export type FakeHandler = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeRoute {
  readonly method: string;
  /** `/v1/notes/:id`: literal segments and `:name` parameters. */
  readonly path: string;
  readonly handler: FakeHandler;
}

export type InjectedFailure =
  /** Answer this status (500, 502, 503…) with an optional body and headers. */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly json?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** 429 (or the given status) with `Retry-After` as given: seconds or an HTTP date. */
  | {
      readonly kind: 'rateLimit';
      readonly retryAfter?: number | string;
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Never answer: the client's timeout (or close()) ends it. */
  | { readonly kind: 'hang' }
  /** Destroy the socket without a response. */
  | { readonly kind: 'drop' };

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The raw query string, '' when none. */
  readonly search: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Epoch ms at arrival, by the real clock. */
  readonly receivedAt: number;
  /** Requests in flight when this one arrived, itself included. */
  readonly inFlight: number;
  /** What answered it: a route, an injected failure, the auth check, or no route. */
  readonly outcome: 'route' | InjectedFailure['kind'] | 'unauthorized' | 'no-route';
}

export interface FakeServer {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** The most requests ever in flight at once. */
  readonly maxInFlight: number;
  /** Errors thrown by handlers (each answered 500), so a broken fake fails its test loudly. */
  readonly handlerErrors: readonly unknown[];
  route(method: string, path: string, handler: FakeHandler): void;
  /** The next `times` requests (matching method/path when given) fail as described, before auth and routing. */
  failNext(times: number, failure: InjectedFailure, match?: { method?: string; path?: string }): void;
  /** Requests without `Authorization: Bearer <token>` get 401; null turns the check off. */
  requireBearer(token: string | null): void;
  clearLog(): void;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  readonly routes?: readonly FakeRoute[];
  readonly bearerToken?: string;
}

type CompiledRoute = { method: string; segments: string[]; handler: FakeHandler };
type PendingFailure = { remaining: number; failure: InjectedFailure; method?: string; segments?: string[] };

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const actual = segments[index] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}

function send(res: ServerResponse, response: FakeResponse): void {
  const headers: Record<string, string> = { ...response.headers };
  let body: string | Uint8Array = response.body ?? '';
  if (response.json !== undefined) {
    body = JSON.stringify(response.json);
    headers['content-type'] ??= 'application/json';
  }
  res.writeHead(response.status ?? 200, headers);
  res.end(body);
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const routes: CompiledRoute[] = [];
  const failures: PendingFailure[] = [];
  const requests: RecordedRequest[] = [];
  const handlerErrors: unknown[] = [];
  const sockets = new Set<Socket>();
  let bearer: string | null = options.bearerToken ?? null;
  let inFlight = 0;
  let maxInFlight = 0;
  let origin = '';

  const takeFailure = (method: string, segments: string[]): InjectedFailure | undefined => {
    const pending = failures.find(
      (entry) =>
        entry.remaining > 0 &&
        (entry.method === undefined || entry.method === method) &&
        (entry.segments === undefined || matchSegments(entry.segments, segments) !== null),
    );
    if (!pending) return undefined;
    pending.remaining -= 1;
    if (pending.remaining === 0) failures.splice(failures.indexOf(pending), 1);
    return pending.failure;
  };

  const server = createServer(async (req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const arrivedInFlight = inFlight;
    res.on('close', () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', origin);
    const method = (req.method ?? 'GET').toUpperCase();
    const segments = splitPath(url.pathname);
    const record = (outcome: RecordedRequest['outcome']) =>
      requests.push({
        method,
        path: url.pathname,
        search: url.search,
        headers: req.headers,
        body,
        receivedAt: Date.now(),
        inFlight: arrivedInFlight,
        outcome,
      });

    const failure = takeFailure(method, segments);
    if (failure) {
      record(failure.kind);
      if (failure.kind === 'hang') return;
      if (failure.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (failure.kind === 'status') {
        send(res, {
          status: failure.status,
          json: failure.json ?? { error: 'injected' },
          headers: failure.headers,
        });
        return;
      }
      const headers: Record<string, string> = { ...failure.headers };
      if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
      send(res, { status: failure.status ?? 429, json: { error: 'rate_limited' }, headers });
      return;
    }

    if (bearer !== null && req.headers.authorization !== `Bearer ${bearer}`) {
      record('unauthorized');
      send(res, { status: 401, json: { error: 'invalid_auth' } });
      return;
    }

    for (const route of routes) {
      if (route.method !== method) continue;
      const params = matchSegments(route.segments, segments);
      if (params === null) continue;
      record('route');
      try {
        const response = await route.handler({
          method,
          path: url.pathname,
          params,
          query: url.searchParams,
          headers: req.headers,
          body,
          origin,
          json: () => (body === '' ? undefined : JSON.parse(body)),
        });
        if (response.delayMs !== undefined) await delay(response.delayMs);
        if (!res.destroyed) send(res, response);
      } catch (error) {
        handlerErrors.push(error);
        if (!res.destroyed) send(res, { status: 500, json: { error: 'fake handler failed' } });
      }
      return;
    }
    record('no-route');
    send(res, { status: 404, json: { error: 'not_found' } });
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeServer = {
    url: origin,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    handlerErrors,
    route(method, path, handler) {
      routes.push({ method: method.toUpperCase(), segments: splitPath(path), handler });
    },
    failNext(times, failure, match = {}) {
      failures.push({
        remaining: times,
        failure,
        method: match.method?.toUpperCase(),
        segments: match.path === undefined ? undefined : splitPath(match.path),
      });
    },
    requireBearer(token) {
      bearer = token;
    },
    clearLog() {
      requests.length = 0;
      maxInFlight = inFlight;
    },
    async close() {
      // Hanging requests would hold close() open forever; the sockets go first.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
  for (const route of options.routes ?? []) fake.route(route.method, route.path, route.handler);
  return fake;
}

// ── Paginated fixtures ──────────────────────────────────────────────────────────────────────────────────────
// Handlers over a list read at request time, so a test can change the fixture between syncs.

export interface CursorPagesOptions {
  readonly pageSize: number;
  /** Query parameter with the cursor. Default 'cursor'. */
  readonly cursorParam?: string;
  /** Keys of the answer: `{ items: […], next_cursor: '…' | null }` by default. */
  readonly itemsKey?: string;
  readonly nextKey?: string;
}

/** Cursors are opaque tokens (base64 of an offset), as vendors' are: clients must not compute them. */
export function cursorPages(items: () => readonly unknown[], options: CursorPagesOptions): FakeHandler {
  return (request) => {
    const token = request.query.get(options.cursorParam ?? 'cursor');
    const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(start) || start < 0) return { status: 400, json: { error: 'invalid_cursor' } };
    const all = items();
    const end = start + options.pageSize;
    const next = end < all.length ? Buffer.from(String(end), 'utf8').toString('base64url') : null;
    return {
      json: {
        [options.itemsKey ?? 'items']: all.slice(start, end),
        [options.nextKey ?? 'next_cursor']: next,
      },
    };
  };
}

export interface NumberedPagesOptions {
  readonly pageSize: number;
  /** Default 'page'. */
  readonly pageParam?: string;
  /** Honoured when sent (capped at `pageSize`). Default 'per_page'. */
  readonly sizeParam?: string;
  /** Default 1. */
  readonly firstPage?: number;
  readonly itemsKey?: string;
}

/** `{ items, page, has_more }`, pages counted from `firstPage`. */
export function numberedPages(items: () => readonly unknown[], options: NumberedPagesOptions): FakeHandler {
  return (request) => {
    const firstPage = options.firstPage ?? 1;
    const page = Number(request.query.get(options.pageParam ?? 'page') ?? firstPage);
    const askedSize = Number(request.query.get(options.sizeParam ?? 'per_page') ?? options.pageSize);
    const size = Math.min(options.pageSize, askedSize > 0 ? askedSize : options.pageSize);
    if (!Number.isInteger(page) || page < firstPage) return { status: 400, json: { error: 'invalid_page' } };
    const all = items();
    const start = (page - firstPage) * size;
    return {
      json: {
        [options.itemsKey ?? 'items']: all.slice(start, start + size),
        page,
        has_more: start + size < all.length,
      },
    };
  };
}

/** A bare JSON array per page with `Link: <…?page=N>; rel="next"`, the GitHub/GitLab style. */
export function linkPages(
  items: () => readonly unknown[],
  options: { readonly pageSize: number },
): FakeHandler {
  return (request) => {
    const page = Number(request.query.get('page') ?? 1);
    if (!Number.isInteger(page) || page < 1) return { status: 400, json: { message: 'invalid page' } };
    const all = items();
    const start = (page - 1) * options.pageSize;
    const headers: Record<string, string> = {};
    if (start + options.pageSize < all.length) {
      const next = new URL(request.path, request.origin);
      for (const [key, value] of request.query) if (key !== 'page') next.searchParams.append(key, value);
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.toString()}>; rel="next", <${request.origin}${request.path}?page=1>; rel="first"`;
    }
    return { json: all.slice(start, start + options.pageSize), headers };
  };
}
