// A fetch for vendor SDKs that accept one (@notionhq/client's `fetch` option, Graph's custom fetch): every call
// goes through the connection's HttpClient, so the SDK's requests share its limiter, Retry-After handling,
// timeouts, abort signal and typed errors instead of re-implementing them with other rules. Turn the vendor
// SDK's own retries off: the HttpClient retries, and both doing it would multiply the attempts.
import type { HttpClient } from './http';

/** The part of fetch's RequestInit vendor SDKs send: JSON bodies are strings. */
export interface VendorFetchInit {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * A fetch over `http`. Answers a standard Response for 2xx and 3xx; other statuses arrive as the HttpClient's
 * errors (InvalidCredentialsError, RateLimitedError, NotFoundError…), which the SDK passes through unchanged.
 */
export function vendorFetch(http: HttpClient): (url: string, init?: VendorFetchInit) => Promise<Response> {
  return async (url, init = {}) => {
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
      throw new TypeError('vendorFetch sends string bodies only');
    const response = await http.request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body ?? undefined,
    });
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
  };
}
