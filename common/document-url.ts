// Whether a document's address leads anywhere a browser can open.

/**
 * Top-level and second-level names reserved by RFC 2606 / RFC 6761 that never resolve on the internet. The demo
 * workspace's documents (server/demo/seed.ts) and test fixtures live under them on purpose (acme.example), so an
 * address there is a placeholder for a document that exists only in Scout's index.
 */
const RESERVED_TLDS = ['example', 'invalid', 'test'];
const RESERVED_DOMAINS = ['example.com', 'example.net', 'example.org'];

/**
 * A document's URL is worth an 'Open in <app>' only when it is http(s) on a host that can exist. Anything else (no
 * URL, another scheme, a reserved placeholder host) is shown in Scout's own preview and nowhere else.
 */
export function isOpenableDocumentUrl(url: string | null | undefined): url is string {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (host === '') return false;
  if (RESERVED_TLDS.some((tld) => host === tld || host.endsWith(`.${tld}`))) return false;
  return !RESERVED_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
