// Vendor SDKs that take a fetch of the caller's (gaxios' `fetchImplementation`, Notion's `fetch`) can send their
// requests through the connection's HTTP client instead of their own transport. They then share its limiter,
// timeouts, retries, Retry-After handling and typed errors, and a vendor call is retried in one place only: turn the
// SDK's own retries off. The client answers only what it judged a success; anything else it throws, and the SDK
// wraps that as it wraps any fetch failure, which `connectorErrorIn` unwraps for the engine.
import { ConnectorError } from './errors';
import type { HttpClient } from './http';

/** Statuses whose responses carry no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch whose requests go through `http`. `http` must carry the vendor's origin as its base URL, since the client
 * refuses to send its credentials to any other origin.
 */
export function fetchThrough(http: HttpClient, options: { maxBodyBytes?: number } = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const response = await http.request(request.url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body,
      maxBodyBytes: options.maxBodyBytes,
    });
    const content = NULL_BODY_STATUSES.has(response.status) ? null : new Uint8Array(response.body);
    return new Response(content, { status: response.status, headers: response.headers });
  };
}

/** The ConnectorError a vendor SDK wrapped (as an error's `cause`, however deep), or the error itself. */
export function connectorErrorIn(error: unknown): unknown {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof ConnectorError) return current;
  }
  return error;
}
