// What a fetched response says as a page: whether it is one we index (HTML or plain text), its text, its links
// and what it asks of crawlers (canonical URL, noindex, nofollow).
import { createHash } from 'node:crypto';
import { htmlToDocument } from '../sdk/html';

/** A larger answer is not a web page worth indexing (a data dump, a mislabelled download). */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

export type PageKind = 'html' | 'text';

export interface Page {
  readonly kind: PageKind;
  readonly title: string;
  /** Plain text; HTML keeps its headings as Markdown ATX lines for the chunker. */
  readonly body: string;
  /** Absolute, fragment-free links (rel="nofollow" ones already left out). */
  readonly links: readonly string[];
  readonly canonicalUrl: string | undefined;
  readonly noindex: boolean;
  readonly nofollow: boolean;
  readonly lang: string | undefined;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function looksLikeHtml(body: Uint8Array): boolean {
  const start = new TextDecoder().decode(body.subarray(0, 512)).trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

/** HTML, plain text, or null for anything else; a response without a Content-Type is sniffed for HTML. */
export function pageKind(contentType: string | null, body: Uint8Array): PageKind | null {
  const type = mediaType(contentType);
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/plain') return 'text';
  if (type === '' && looksLikeHtml(body)) return 'html';
  return null;
}

/** Decodes with the charset the Content-Type names, UTF-8 when it names none or one this Node does not know. */
export function decodeBody(contentType: string | null, body: Uint8Array): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // an unknown label: fall through to UTF-8
    }
  }
  return new TextDecoder().decode(body);
}

/** Directives that take a value (`max-snippet: 20`): their colon does not name a user agent. */
const VALUED_DIRECTIVES = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
]);

/**
 * `X-Robots-Tag: noindex, nofollow`, or aimed at a user agent (`ScoutBot: noindex`), in which case lines for
 * other agents are ignored. Repeated headers arrive joined by commas.
 */
export function robotsTagDirectives(
  header: string | null,
  agent: string,
): { noindex: boolean; nofollow: boolean } {
  const directives = new Set<string>();
  // A new agent's line starts at a comma followed by 'name:'.
  for (const line of (header ?? '').split(/,(?=\s*[a-z0-9_-]+\s*:)/i)) {
    const scoped = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/i.exec(line);
    const name = scoped?.[1]?.toLowerCase();
    let values = line;
    if (name !== undefined && !VALUED_DIRECTIVES.has(name)) {
      if (name !== agent.toLowerCase()) continue;
      values = scoped?.[2] ?? '';
    }
    for (const value of values.toLowerCase().split(/[\s,]+/)) if (value) directives.add(value);
  }
  return {
    noindex: directives.has('noindex') || directives.has('none'),
    nofollow: directives.has('nofollow') || directives.has('none'),
  };
}

function titleFromUrl(url: string): string {
  const { hostname, pathname } = new URL(url);
  const last = pathname.split('/').filter(Boolean).at(-1);
  if (!last) return hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function readPage(kind: PageKind, text: string, url: string): Page {
  if (kind === 'text') {
    return {
      kind,
      title: titleFromUrl(url),
      body: text.replace(/\r\n?/g, '\n').trim(),
      links: [],
      canonicalUrl: undefined,
      noindex: false,
      nofollow: false,
      lang: undefined,
    };
  }
  const document = htmlToDocument(text, { baseUrl: url });
  return {
    kind,
    title: document.title || titleFromUrl(url),
    body: document.text,
    links: document.links,
    canonicalUrl: document.canonicalUrl,
    noindex: document.metaRobots.noindex,
    nofollow: document.metaRobots.nofollow,
    lang: document.lang,
  };
}

/** What a change is judged by: the text we index, not the markup (a rotating nonce or ad slot is no change). */
export function contentHash(page: Page): string {
  return createHash('sha256')
    .update(page.title)
    .update('\u0000')
    .update(page.body)
    .digest('base64url')
    .slice(0, 16);
}
