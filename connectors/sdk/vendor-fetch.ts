// Vendor SDKs (googleapis' gaxios `fetchImplementation`, Notion's `fetch`, Graph's custom fetch) build their requests
// themselves and accept a fetch of the caller's. Handing them one backed by the connection's HttpClient keeps the
// SDK's typed calls while every request still goes through our limiter, timeouts, retries, Retry-After handling and
// typed errors, so a vendor call is retried in one place only: turn the SDK's own retries off. The client answers
// only what it judged a success and throws anything else; the SDK then wraps our error in one of its own, and
// `unwrapConnectorError` digs ours back out so the engine can branch on its class.
import { ConnectorError } from './errors';
import type { HttpClient } from './http';

/** The WHATWG fetch signature vendor SDKs call. */
export type VendorFetch = typeof fetch;

/** Statuses whose responses carry no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch whose requests go through `http`. `http` must carry the vendor's origin as its base URL, since the client
 * refuses to send its credentials to any other origin.
 */
export function vendorFetch(
  http: HttpClient,
  options: { maxBodyBytes?: number; timeoutMs?: number } = {},
): VendorFetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const response = await http.request(request.url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body,
      maxBodyBytes: options.maxBodyBytes,
      timeoutMs: options.timeoutMs,
    });
    const content = NULL_BODY_STATUSES.has(response.status) ? null : new Uint8Array(response.body);
    return new Response(content, { status: response.status, headers: response.headers });
  };
}

/** The ConnectorError somewhere in `error`'s cause chain, else `error` itself. */
export function unwrapConnectorError(error: unknown): unknown {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof ConnectorError) return current;
  }
  return error;
}

/** Awaits a vendor SDK call, rethrowing our own error if the SDK wrapped one. */
export async function callVendor<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw unwrapConnectorError(error);
  }
}
