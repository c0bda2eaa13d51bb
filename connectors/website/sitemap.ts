// Sitemaps (sitemaps.org): a <urlset> of pages or a <sitemapindex> of further sitemaps, each entry a <loc> and an
// optional <lastmod> in W3C datetime form.
import { Parser } from 'htmlparser2';

export interface SitemapEntry {
  readonly loc: string;
  readonly lastmod?: string;
}

export interface Sitemap {
  readonly kind: 'urlset' | 'index';
  readonly entries: readonly SitemapEntry[];
}

/** The local name, lower-cased: some sites write `<sm:urlset>`. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

/** Reads a sitemap, or returns null when the document is neither kind (an HTML error page served as 200). */
export function parseSitemap(xml: string): Sitemap | null {
  let kind: Sitemap['kind'] | null = null;
  let root = true;
  const entries: SitemapEntry[] = [];
  let entry: { loc: string; lastmod: string } | null = null;
  let field: 'loc' | 'lastmod' | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        if (root) {
          root = false;
          kind = local === 'urlset' ? 'urlset' : local === 'sitemapindex' ? 'index' : null;
        }
        if (local === 'url' || local === 'sitemap') entry = { loc: '', lastmod: '' };
        else if (entry && (local === 'loc' || local === 'lastmod')) field = local;
      },
      ontext(text) {
        if (entry && field) entry[field] += text;
      },
      onclosetag(name) {
        const local = localName(name);
        if (local === 'loc' || local === 'lastmod') field = null;
        if ((local === 'url' || local === 'sitemap') && entry) {
          const loc = entry.loc.trim();
          const lastmod = entry.lastmod.trim();
          if (loc !== '') entries.push(lastmod === '' ? { loc } : { loc, lastmod });
          entry = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return kind === null ? null : { kind, entries };
}

const HOUR_MS = 3_600_000;

/**
 * The latest instant a lastmod value can mean, in epoch ms, or undefined when it is not a W3C datetime. A date
 * alone covers that whole day in any time zone (up to 38 hours after its UTC midnight), a time without seconds
 * its whole minute, and so on: a page is only taken as unchanged since a crawl when even this end is earlier.
 */
export function lastmodEnd(lastmod: string): number | undefined {
  const value = lastmod.trim();
  const date = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (date) {
    const [, year, month, day] = date;
    const start = Date.UTC(Number(year), month ? Number(month) - 1 : 0, day ? Number(day) : 1);
    if (Number.isNaN(start)) return undefined;
    const end = day
      ? start + 24 * HOUR_MS
      : month
        ? Date.UTC(Number(year), Number(month), 1)
        : Date.UTC(Number(year) + 1, 0, 1);
    // The value names no time zone: it may be as far as UTC-14 from us.
    return end + 14 * HOUR_MS;
  }
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (!time) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const fraction = time[2]?.length ?? 0;
  const precisionMs = time[1] ? 1000 / 10 ** Math.min(3, Math.max(0, fraction - 1)) : 60_000;
  return at + precisionMs - 1;
}
