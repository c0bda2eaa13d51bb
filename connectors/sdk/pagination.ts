// Pagination as async generators over the three styles vendors use. Each page comes with the token that fetches
// the next one, so a connector can put it in the cursor of the batch it builds from the page: a sync that dies
// after committing that batch resumes exactly where it stopped.
import type { z } from 'zod';
import { FatalSourceError } from './errors';
import { parseJsonBody, resolveUrl, type HttpClient, type RequestOptions } from './http';

export interface Page<T, Token> {
  readonly items: readonly T[];
  /** What fetches the page after this one; null on the last page. */
  readonly next: Token | null;
}

interface PageShape<S extends z.ZodType, T> {
  readonly path: string;
  readonly schema: S;
  readonly items: (page: z.output<S>) => readonly T[];
  /** Method, query, headers and body of every page request; the paginator adds its own parameter. */
  readonly request?: RequestOptions;
}

export interface CursorPagination<S extends z.ZodType, T> extends PageShape<S, T> {
  /** The next page's cursor; null, undefined or '' ends the listing (Slack sends ''). */
  readonly nextCursor: (page: z.output<S>) => string | null | undefined;
  /** Query parameter (or body field, with `cursorIn: 'body'`) carrying the cursor. Default 'cursor'. */
  readonly cursorParam?: string;
  /** 'body' merges the cursor into the JSON body, for POST listings such as Notion's `start_cursor`. */
  readonly cursorIn?: 'query' | 'body';
  /** Resume from a saved token. */
  readonly startCursor?: string | null;
}

export async function* paginateByCursor<S extends z.ZodType, T>(
  http: HttpClient,
  options: CursorPagination<S, T>,
): AsyncGenerator<Page<T, string>> {
  const param = options.cursorParam ?? 'cursor';
  let cursor = options.startCursor ?? null;
  for (;;) {
    const base = options.request ?? {};
    const request: RequestOptions =
      cursor === null
        ? base
        : options.cursorIn === 'body'
          ? { ...base, json: { ...(base.json as object | undefined), [param]: cursor } }
          : { ...base, query: { ...base.query, [param]: cursor } };
    const page = await http.json(options.path, options.schema, request);
    const next = options.nextCursor(page) || null;
    if (next !== null && next === cursor) {
      throw new FatalSourceError(`${options.path}: pagination returned the same cursor twice`);
    }
    yield { items: options.items(page), next };
    if (next === null) return;
    cursor = next;
  }
}

export interface PageNumberPagination<S extends z.ZodType, T> extends PageShape<S, T> {
  /** Default 'page'. */
  readonly pageParam?: string;
  /** The number of the first page: 1 (default) or 0. */
  readonly firstPage?: number;
  /** Resume from a saved page number. */
  readonly startPage?: number;
  readonly pageSize?: number;
  /** Query parameter for `pageSize`, e.g. 'per_page'. Default 'per_page'. */
  readonly pageSizeParam?: string;
  /** Whether a page follows. Default: the page was full (with `pageSize`), else it was not empty. */
  readonly hasMore?: (page: z.output<S>, items: readonly T[]) => boolean;
}

export async function* paginateByPageNumber<S extends z.ZodType, T>(
  http: HttpClient,
  options: PageNumberPagination<S, T>,
): AsyncGenerator<Page<T, number>> {
  const pageParam = options.pageParam ?? 'page';
  const base = options.request ?? {};
  const sizeQuery =
    options.pageSize === undefined ? {} : { [options.pageSizeParam ?? 'per_page']: options.pageSize };
  for (let number = options.startPage ?? options.firstPage ?? 1; ; number += 1) {
    const page = await http.json(options.path, options.schema, {
      ...base,
      query: { ...base.query, ...sizeQuery, [pageParam]: number },
    });
    const items = options.items(page);
    const more = options.hasMore
      ? options.hasMore(page, items)
      : options.pageSize === undefined
        ? items.length > 0
        : items.length >= options.pageSize;
    yield { items, next: more ? number + 1 : null };
    if (!more) return;
  }
}

/** The targets of an RFC 8288 `Link` header by relation: `<…?page=2>; rel="next"` → { next: '…?page=2' }. */
export function parseLinkHeader(value: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const match of (value ?? '').matchAll(/<([^>]*)>((?:\s*;\s*[^;,]*)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] ?? '')?.[1];
    if (match[1] === undefined || rel === undefined) continue;
    for (const name of rel.trim().split(/\s+/)) links[name.toLowerCase()] ??= match[1];
  }
  return links;
}

export interface LinkHeaderPagination<S extends z.ZodType, T> extends PageShape<S, T> {
  /** Resume from a saved `next` URL. */
  readonly startUrl?: string | null;
}

/** Follows `Link: <url>; rel="next"` (GitHub, GitLab, Zendesk…). Links to another origin are refused. */
export async function* paginateByLinkHeader<S extends z.ZodType, T>(
  http: HttpClient,
  options: LinkHeaderPagination<S, T>,
): AsyncGenerator<Page<T, string>> {
  let target = options.startUrl ?? null;
  const base = options.request ?? {};
  for (;;) {
    // The first request carries the caller's query; a next link already holds its own.
    const request = target === null ? base : { ...base, query: undefined };
    const path = target ?? options.path;
    const headers = { accept: 'application/json', ...base.headers };
    const response = await http.request(path, { ...request, headers });
    const requested = resolveUrl(http.baseUrl, path, request.query);
    const method = (base.method ?? 'GET').toUpperCase();
    const page = parseJsonBody(response, options.schema, `${method} ${requested.pathname}`);
    const link = parseLinkHeader(response.headers.get('link')).next;
    // RFC 8288: a relative link resolves against the URL it came from; the client then checks its origin.
    const next = link === undefined ? null : new URL(link, requested).toString();
    if (next !== null && next === target) {
      throw new FatalSourceError(`${options.path}: pagination returned the same link twice`);
    }
    yield { items: options.items(page), next };
    if (next === null) return;
    target = next;
  }
}

export interface NextLinkPage<P, T> extends Page<T, string> {
  /** The whole answer, for what rides on a page besides its items (an OData `@odata.deltaLink`). */
  readonly body: P;
}

export interface NextLinkPagination<S extends z.ZodType, T> extends PageShape<S, T> {
  /** The absolute address of the next page as the body gives it (OData's `@odata.nextLink`); null or absent ends. */
  readonly nextLink: (page: z.output<S>) => string | null | undefined;
  /** Resume from a saved next link (or start from a saved delta link) instead of `path`. */
  readonly startUrl?: string | null;
}

/**
 * Follows a next-page address carried in the body (Microsoft Graph and other OData APIs). The link already holds
 * the listing's query, so only the first request carries the caller's; headers go with every request. The client
 * refuses a link to another origin, so credentials never follow one.
 */
export async function* paginateByNextLink<S extends z.ZodType, T>(
  http: HttpClient,
  options: NextLinkPagination<S, T>,
): AsyncGenerator<NextLinkPage<z.output<S>, T>> {
  const base = options.request ?? {};
  let target = options.startUrl ?? null;
  for (;;) {
    const request = target === null ? base : { ...base, query: undefined };
    const body = await http.json(target ?? options.path, options.schema, request);
    const next = options.nextLink(body) || null;
    if (next !== null && next === target) {
      throw new FatalSourceError(`${options.path}: pagination returned the same link twice`);
    }
    yield { items: options.items(body), next, body };
    if (next === null) return;
    target = next;
  }
}
