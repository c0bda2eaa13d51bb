// One spelling per page. Two URLs that a site serves the same page under (different host case, a default port, a
// fragment, reordered query parameters, a campaign tag) must become one document and one fetch.

/** Query parameters that only say where a visitor came from; they never change the page. */
const TRACKING_PARAMS = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
]);

function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMS.has(lower);
}

/** A document's externalId is at most this long, and a page is recorded under its URL. */
export const MAX_URL_LENGTH = 512;

/**
 * The crawler's form of a URL, or null for what it never fetches (another scheme, credentials in the URL,
 * unparseable). Host lower-cased and default port dropped (the URL parser does both), fragment dropped, tracking
 * parameters removed, the rest sorted by name (stable, so repeated names keep their order), and percent escapes
 * upper-cased. The path keeps its trailing slash: `/docs` and `/docs/` may be different pages. URLs longer
 * than MAX_URL_LENGTH are left alone too (calendars and faceted search generate them without end).
 */
export function normalizeUrl(raw: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // fetch refuses such URLs, and a link carrying a password is not one to follow.
  if (url.username !== '' || url.password !== '') return null;
  url.hash = '';
  const kept = [...url.searchParams].filter(([name]) => !isTrackingParam(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = new URLSearchParams(kept).toString();
  url.pathname = url.pathname.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  const normal = url.toString();
  return normal.length > MAX_URL_LENGTH ? null : normal;
}

export function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * Files a link's extension says are not pages. Skipping them before the request saves downloading a video to learn
 * its content type; anything else is fetched and judged by its Content-Type.
 */
const NOT_PAGES =
  /\.(?:7z|avi|bin|bmp|css|csv|dmg|docx?|eot|exe|gif|gz|ico|iso|jpe?g|js|json|m4a|mov|mp3|mp4|mpe?g|ogg|otf|pdf|png|pptx?|rar|svg|tar|tgz|tiff?|ttf|wav|webm|webp|woff2?|xlsx?|xml|zip)$/i;

export function looksLikeFile(url: string): boolean {
  return NOT_PAGES.test(new URL(url).pathname);
}
