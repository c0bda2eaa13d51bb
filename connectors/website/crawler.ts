// One crawl of a site, breadth first from the start URL, as a stream of sync batches whose cursors are
// checkpoints. A crawl that knows the site from an earlier one (the cursor's `pages`) re-checks every page it
// knows with a conditional request, so that a 304 costs no body and yields nothing; it finds new pages through
// the links of changed pages and through the sitemap; and it reports pages that are gone as deleted.
import { gunzipSync } from 'node:zlib';
import {
  HttpStatusError,
  ORG_PRINCIPAL,
  RateLimitedError,
  RefusedAddressError,
  ResponseTooLargeError,
  TransientError,
  type ConnectorContext,
  type HttpResponse,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import type { CrawlCursor, PageState, Pass, Queued } from './cursor';
import { contentHash, decodeBody, pageKind, readPage, robotsTagDirectives, type Page } from './page';
import { ROBOTS_AGENT } from './robots';
import { Site, type SiteSettings } from './site';
import { parseSitemap, lastmodEnd } from './sitemap';
import { looksLikeFile, normalizeUrl, originOf } from './url';

export interface CrawlSettings extends SiteSettings {
  /** The start URL, normalised. */
  readonly startUrl: string;
  readonly maxPages: number;
  readonly maxDepth: number;
  readonly batchSize: number;
}

type Context = ConnectorContext<unknown, unknown>;

/** Sitemap files read per crawl (an index and its children). */
const MAX_SITEMAP_FILES = 50;
/** A sitemap unpacks to at most this (the protocol's own limit is 50 MB). */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Transient failures in a row (each after the client's retries) that say the site is down, not one page. */
const MAX_CONSECUTIVE_FAILURES = 3;

/** What the crawler knows before its first crawl. */
export function emptyCursor(startUrl: string): CrawlCursor {
  return { v: 1, start: startUrl, origin: originOf(startUrl), since: null, pages: {}, pass: null };
}

function newPass(ctx: Context, startUrl: string): Pass {
  return {
    startedAt: ctx.now().toISOString(),
    seeded: false,
    partial: false,
    fetched: 0,
    queue: [[startUrl, 0, null]],
    done: [],
  };
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

function parseDate(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at);
}

function conditionalHeaders(state: PageState | undefined): Record<string, string> | undefined {
  if (!state) return undefined;
  const [etag, lastModified] = state;
  const headers: Record<string, string> = {};
  if (etag !== null) headers['if-none-match'] = etag;
  if (lastModified !== null) headers['if-modified-since'] = lastModified;
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function isStopping(ctx: Context, error: unknown): boolean {
  // Aborts, a source that asked us to stay away, and a site that now resolves to a private address end the sync.
  return ctx.signal.aborted || error instanceof RateLimitedError || error instanceof RefusedAddressError;
}

/**
 * Crawls from `cursor` on: continues its crawl in progress, or starts a new one. Every batch's cursor resumes the
 * crawl after that batch; the last one closes the crawl (pass null).
 */
export async function* crawl(
  ctx: Context,
  settings: CrawlSettings,
  cursor: CrawlCursor,
): AsyncGenerator<SyncBatch> {
  const { startUrl } = settings;
  const pass = cursor.pass ?? newPass(ctx, startUrl);
  const since = cursor.since === null ? undefined : Date.parse(cursor.since);
  const pages = new Map<string, PageState>(Object.entries(cursor.pages));
  const queue: Queued[] = pass.queue.map(([url, depth, lastmod]) => [url, depth, lastmod]);
  let head = 0;
  const queued = new Set(queue.map(([url]) => url));
  const done = new Set(pass.done);
  /** ExternalIds confirmed live in this run (fetched, unchanged, or skipped by lastmod): never deleted by it. */
  const live = new Set<string>();
  let { fetched, seeded } = pass;
  let failuresInARow = 0;
  /** Whether the start URL answered in this run, which settles the site's origin. */
  let startReached = false;
  let { partial } = pass;
  let documents: SourceDocument[] = [];
  let deleted: string[] = [];
  let sinceFlush = 0;

  const site = await Site.open(ctx, settings, cursor.pass ? cursor.origin : originOf(startUrl));
  const log = ctx.logger;

  const forget = (id: string, reason: string): void => {
    if (!pages.has(id) || live.has(id)) return;
    pages.delete(id);
    deleted.push(id);
    log.debug({ path: pathOf(id), reason }, 'page gone');
  };

  /** Queues a URL of the site the crawl has not met yet; the queue never holds more than the cap could use. */
  const enqueue = (url: string, depth: number, lastmod: string | null): void => {
    if (done.has(url) || queued.has(url) || originOf(url) !== site.origin || looksLikeFile(url)) return;
    if (queue.length - head >= 2 * settings.maxPages) return;
    queue.push([url, depth, lastmod]);
    queued.add(url);
  };

  const snapshot = (closing: boolean, capped: boolean): CrawlCursor => ({
    v: 1,
    start: startUrl,
    origin: site.origin,
    // A crawl that left known pages unvisited does not vouch for them: their lastmod must not be skipped on.
    since: closing && !capped && !partial ? pass.startedAt : cursor.since,
    pages: Object.fromEntries(pages),
    pass: closing
      ? null
      : {
          startedAt: pass.startedAt,
          seeded,
          partial,
          fetched,
          queue: queue.slice(head).map(([url, depth, lastmod]) => [url, depth, lastmod]),
          done: [...done],
        },
  });

  const flush = (closing: boolean, capped = false): SyncBatch => {
    const remaining = queue.length - head;
    const share = closing
      ? 1
      : Math.min(1, Math.max(done.size / (done.size + remaining), fetched / settings.maxPages));
    const batch: SyncBatch = {
      documents,
      ...(deleted.length > 0 ? { deletedExternalIds: deleted } : {}),
      cursor: snapshot(closing, capped),
      progress: { share },
    };
    documents = [];
    deleted = [];
    sinceFlush = 0;
    return batch;
  };

  /** Sitemap URLs of the site with their lastmod (null when absent), from robots.txt's Sitemap lines or /sitemap.xml. */
  const readSitemaps = async (): Promise<Map<string, string | null>> => {
    const found = new Map<string, string | null>();
    const listed = site.robots.sitemaps.map((url) => normalizeUrl(url)).filter((url) => url !== null);
    const todo = listed.filter((url) => originOf(url) === site.origin);
    if (todo.length === 0) todo.push(`${site.origin}/sitemap.xml`);
    const read = new Set<string>();
    while (todo.length > 0 && read.size < MAX_SITEMAP_FILES && found.size < settings.maxPages) {
      const url = todo.shift() as string;
      if (read.has(url)) continue;
      read.add(url);
      let response: HttpResponse;
      try {
        const followed = await site.follow(url, 'same-origin', { maxBodyBytes: MAX_SITEMAP_BYTES });
        if (followed.kind !== 'response' || followed.response.status !== 200) continue;
        response = followed.response;
      } catch (error) {
        if (isStopping(ctx, error)) throw error;
        // A sitemap is a hint: without it the links still lead everywhere.
        log.debug({ path: pathOf(url), error: String(error) }, 'sitemap unreadable');
        continue;
      }
      let bytes = response.body;
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
        try {
          bytes = gunzipSync(bytes, { maxOutputLength: MAX_SITEMAP_BYTES });
        } catch {
          continue;
        }
      }
      const sitemap = parseSitemap(new TextDecoder().decode(bytes));
      if (!sitemap) continue;
      for (const entry of sitemap.entries) {
        const loc = normalizeUrl(entry.loc);
        if (loc === null || originOf(loc) !== site.origin) continue;
        if (sitemap.kind === 'index') todo.push(loc);
        else if (!found.has(loc) && found.size < settings.maxPages) found.set(loc, entry.lastmod ?? null);
      }
    }
    log.debug({ sitemaps: read.size, urls: found.size }, 'sitemaps read');
    return found;
  };

  /** After the start page: the pages known from earlier crawls, then the sitemap's new ones, behind its links. */
  const seed = async (): Promise<void> => {
    const lastmods = await readSitemaps();
    for (let index = head; index < queue.length; index++) {
      const entry = queue[index] as Queued;
      entry[2] = lastmods.get(entry[0]) ?? entry[2];
    }
    const known = [...pages.entries()].sort(([, a], [, b]) => a[3] - b[3]);
    for (const [url, [, , , depth]] of known) {
      if (originOf(url) === site.origin) enqueue(url, depth, lastmods.get(url) ?? null);
      // Off the site only if the start URL said where the site is now; else they wait for the next crawl.
      else if (startReached) forget(url, 'off the site');
      else partial = true;
    }
    for (const [url, lastmod] of lastmods) enqueue(url, 0, lastmod);
    seeded = true;
  };

  const failed = (url: string, error: unknown): void => {
    if (isStopping(ctx, error)) throw error;
    if (error instanceof HttpStatusError || error instanceof ResponseTooLargeError) {
      // 404 and 410, whatever else the site refuses us (401, 403…), and a body too large to be
      // a web page: not a page to index.
      failuresInARow = 0;
      forget(url, error instanceof HttpStatusError ? `answered ${error.status}` : 'too large');
      return;
    }
    if (error instanceof TransientError) {
      // One page that keeps failing is skipped, and kept if known: it may well be back next time.
      failuresInARow += 1;
      if (failuresInARow >= MAX_CONSECUTIVE_FAILURES) throw error;
      log.warn({ path: pathOf(url), error: error.message }, 'page skipped after retries');
      return;
    }
    throw error;
  };

  const record = (
    id: string,
    page: Page,
    response: HttpResponse,
    depth: number,
    lastmod: string | null,
  ): void => {
    live.add(id);
    const hash = contentHash(page);
    const previous = pages.get(id);
    pages.set(id, [
      response.headers.get('etag'),
      response.headers.get('last-modified'),
      hash,
      Math.min(previous?.[3] ?? depth, depth),
    ]);
    if (previous?.[2] === hash) return;
    const now = ctx.now();
    const stated = parseDate(response.headers.get('last-modified')) ?? parseDate(lastmod) ?? now;
    const modified = stated > now ? now : stated;
    documents.push({
      externalId: id,
      title: page.title,
      url: id,
      body: page.body,
      author: {},
      objectType: 'Articles',
      fileType: 'other',
      createdTime: modified,
      modifiedTime: modified,
      // A website added by an admin is org-wide content (the app is OrgOnly in the catalogue): every member may
      // read what the crawler could read without signing in.
      acl: [ORG_PRINCIPAL],
      extra: { site: new URL(site.origin).hostname, ...(page.lang ? { lang: page.lang } : {}) },
    });
  };

  const visit = async ([url, depth, lastmod]: Queued): Promise<void> => {
    const isStart = !seeded;
    done.add(url);
    if (!isStart && originOf(url) !== site.origin) return forget(url, 'off the site');
    if (!site.robots.isAllowed(url)) return forget(url, 'disallowed by robots.txt');
    const end = lastmod === null ? undefined : lastmodEnd(lastmod);
    if (pages.has(url) && since !== undefined && end !== undefined && end < since) {
      // The sitemap says it has not changed since the last complete crawl fetched it.
      live.add(url);
      return;
    }
    fetched += 1;
    const hops: string[] = [];
    let followed;
    try {
      followed = await site.follow(url, isStart ? 'adopt' : 'same-origin', {
        validators: (hop) => conditionalHeaders(pages.get(hop)),
        isDone: (hop) => done.has(hop),
        onHop: (hop) => {
          done.add(hop);
          hops.push(hop);
        },
      });
    } catch (error) {
      failed(url, error);
      // The answer was the last hop's, and every URL on the way leads there.
      if (error instanceof HttpStatusError || error instanceof ResponseTooLargeError) {
        for (const hop of hops) forget(hop, 'redirects to a page that is gone');
      }
      return;
    }
    failuresInARow = 0;
    if (isStart) startReached = followed.kind !== 'dropped';
    // Every URL on the way answered a redirect: none of them is a page any more.
    const landed = followed.kind === 'response' ? followed.url : undefined;
    for (const hop of [url, ...hops]) if (hop !== landed) forget(hop, 'redirects');
    if (followed.kind !== 'response') return;

    const { response } = followed;
    const final = followed.url;
    if (response.status === 304) {
      live.add(final);
      return;
    }
    if (response.status < 200 || response.status >= 300) return forget(final, `answered ${response.status}`);
    const contentType = response.headers.get('content-type');
    const kind = pageKind(contentType, response.body);
    if (kind === null) return forget(final, 'not an HTML or text page');

    const page = readPage(kind, decodeBody(contentType, response.body), final);
    const header = robotsTagDirectives(response.headers.get('x-robots-tag'), ROBOTS_AGENT);
    if (!page.nofollow && !header.nofollow && depth < settings.maxDepth) {
      for (const link of page.links) {
        const next = normalizeUrl(link);
        if (next !== null) enqueue(next, depth + 1, null);
      }
    }
    if (page.noindex || header.noindex) return forget(final, 'noindex');

    // A canonical URL elsewhere on the site names the page's one identity; one on another site is ignored.
    const canonical = page.canonicalUrl === undefined ? null : normalizeUrl(page.canonicalUrl);
    const id = canonical !== null && originOf(canonical) === site.origin ? canonical : final;
    if (id !== final) {
      forget(final, 'canonical elsewhere');
      done.add(id);
    }
    if (live.has(id)) return;
    record(id, page, response, depth, lastmod);
  };

  try {
    let capped = false;
    while (head < queue.length) {
      if (fetched >= settings.maxPages) {
        capped = true;
        log.info({ maxPages: settings.maxPages, left: queue.length - head }, 'page cap reached');
        break;
      }
      ctx.signal.throwIfAborted();
      const item = queue[head++] as Queued;
      queued.delete(item[0]);
      if (!done.has(item[0])) await visit(item);
      if (!seeded) await seed();
      sinceFlush += 1;
      if (sinceFlush >= settings.batchSize || documents.length + deleted.length >= settings.batchSize) {
        yield flush(false);
      }
    }
    log.info({ fetched, pages: pages.size, capped }, 'crawl finished');
    yield flush(true, capped);
  } finally {
    await site.close();
  }
}
