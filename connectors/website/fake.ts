// A website on 127.0.0.1 for the crawler's tests: pages, files, redirects and robots.txt that a test can change
// between crawls. Pages answer with an ETag and a Last-Modified and honour conditional requests, as real servers
// do; sitemaps can be built from the pages' own modification times.
import { createHash } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from '../sdk/fake-server';

export interface Resource {
  /** Default 200. */
  readonly status?: number;
  readonly body?: string;
  /** Default 'text/html; charset=utf-8'. */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Send ETag (when `etag`) and Last-Modified and answer 304 to a matching conditional request. Default both. */
  readonly etag?: boolean;
  readonly lastModified?: boolean;
}

export interface FakeSite {
  readonly server: FakeServer;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Serves `body` at `path` as HTML (or as `resource` says); a changed body gets a new ETag and modification time. */
  page(path: string, body: string, resource?: Omit<Resource, 'body'>, modified?: Date): void;
  /** Serves whatever `resource()` answers at request time (robots.txt, a sitemap built from the pages). */
  dynamic(path: string, resource: () => Resource): void;
  redirect(path: string, location: string, status?: number): void;
  /** The path answers 404 from now on. */
  remove(path: string): void;
  /** When the page at `path` last changed. */
  modifiedAt(path: string): Date | undefined;
  /** Paths requested, in order, with their query strings. */
  requested(): string[];
  /** `path status` of each answer, in order ('/a 304'). */
  answered(): string[];
  close(): Promise<void>;
}

/** A plain HTML page with a title, a heading, some text and links. */
export function html(title: string, text: string, links: readonly string[] = [], head = ''): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1><p>${text}</p><ul>${anchors}</ul></main></body></html>`;
}

export function sitemapXml(entries: readonly { readonly loc: string; readonly lastmod?: string }[]): string {
  const urls = entries
    .map(
      ({ loc, lastmod }) => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
}

export function sitemapIndexXml(locs: readonly string[]): string {
  const sitemaps = locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemaps}</sitemapindex>`;
}

type Entry =
  | { kind: 'static'; resource: Resource; modified: Date; etag: string }
  | { kind: 'dynamic'; resource: () => Resource };

function httpDate(date: Date): string {
  return date.toUTCString();
}

function answer(entry: Entry | undefined, request: FakeRequest): FakeResponse {
  if (!entry) return { status: 404, body: 'Not found', headers: { 'content-type': 'text/plain' } };
  const resource = entry.kind === 'static' ? entry.resource : entry.resource();
  const headers: Record<string, string> = {
    'content-type': resource.contentType ?? 'text/html; charset=utf-8',
    ...resource.headers,
  };
  if (entry.kind === 'static' && (resource.status ?? 200) === 200) {
    const useEtag = resource.etag ?? true;
    const useLastModified = resource.lastModified ?? true;
    if (useEtag) headers.etag = entry.etag;
    if (useLastModified) headers['last-modified'] = httpDate(entry.modified);
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    const unchanged =
      useEtag && ifNoneMatch !== undefined
        ? ifNoneMatch === entry.etag
        : useLastModified && ifModifiedSince !== undefined
          ? Math.floor(entry.modified.getTime() / 1000) <= Date.parse(ifModifiedSince) / 1000
          : false;
    if (unchanged) return { status: 304, headers: headers.etag === undefined ? {} : { etag: headers.etag } };
  }
  return { status: resource.status ?? 200, body: resource.body ?? '', headers };
}

export async function startFakeSite(): Promise<FakeSite> {
  const server = await startFakeServer();
  const entries = new Map<string, Entry>();
  const routed = new Set<string>();
  const answers: string[] = [];

  const serve = (path: string, entry: Entry) => {
    entries.set(path, entry);
    if (routed.has(path)) return;
    routed.add(path);
    server.route('GET', path, (request) => {
      const response = answer(entries.get(path), request);
      answers.push(`${path} ${response.status ?? 200}`);
      return response;
    });
  };

  return {
    server,
    url: server.url,
    page(path, body, resource = {}, modified) {
      const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 12)}"`;
      const previous = entries.get(path);
      const same = previous?.kind === 'static' && previous.etag === etag;
      serve(path, {
        kind: 'static',
        resource: { ...resource, body },
        modified: modified ?? (same ? previous.modified : new Date()),
        etag,
      });
    },
    dynamic(path, resource) {
      serve(path, { kind: 'dynamic', resource });
    },
    redirect(path, location, status = 301) {
      serve(path, {
        kind: 'dynamic',
        resource: () => ({ status, headers: { location }, contentType: 'text/plain' }),
      });
    },
    remove(path) {
      entries.delete(path);
    },
    modifiedAt(path) {
      const entry = entries.get(path);
      return entry?.kind === 'static' ? entry.modified : undefined;
    },
    requested: () => server.requests.map((request) => `${request.path}${request.search}`),
    answered: () => [...answers],
    close: () => server.close(),
  };
}
