// Vendor SDKs (googleapis, Notion's client, Graph's client…) build their requests themselves and most accept a
// `fetch` implementation. Handing them one backed by the connection's HttpClient keeps the SDK's typed calls while
// every request still goes through our limiter, retries, Retry-After handling and typed errors. The SDK then wraps
// our error in one of its own; `unwrapConnectorError` digs ours back out so the engine can branch on its class.
import { ConnectorError } from './errors';
import type { HttpClient } from './http';

/** The part of the WHATWG fetch signature vendor SDKs call. */
export type VendorFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

function requestBody(
  body: RequestInit['body'],
): string | Uint8Array<ArrayBuffer> | URLSearchParams | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof Uint8Array) return new Uint8Array(body);
  throw new TypeError('vendorFetch sends string, URLSearchParams or byte bodies only');
}

/** A fetch for a vendor SDK whose requests go through `http` (its base URL and auth headers included). */
export function vendorFetch(http: HttpClient): VendorFetch {
  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : input.toString();
    const response = await http.request(url, {
      method: init.method ?? (input instanceof Request ? input.method : 'GET'),
      headers: headerRecord(init.headers ?? (input instanceof Request ? input.headers : undefined)),
      body: requestBody(init.body),
    });
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
  };
}

/** The ConnectorError somewhere in `error`'s cause chain, else `error` itself. */
export function unwrapConnectorError(error: unknown): unknown {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth += 1) {
    if (current instanceof ConnectorError) return current;
    current = current.cause;
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
