// The crawler's cursor: what it knows of the site between crawls, and where a crawl stands while one runs. It is
// stored after every batch, so it stays compact: tuples rather than objects, one entry per indexed page.
import { z } from 'zod';

/** An indexed page: [ETag, Last-Modified, content hash, link depth], keyed by its externalId (canonical URL). */
const pageStateSchema = z.tuple([
  z.string().nullable(),
  z.string().nullable(),
  z.string(),
  z.number().int().min(0),
]);
export type PageState = z.output<typeof pageStateSchema>;

/** A URL waiting to be fetched: [url, link depth, sitemap lastmod]. */
const queuedSchema = z.tuple([z.string(), z.number().int().min(0), z.string().nullable()]);
export type Queued = z.output<typeof queuedSchema>;

/** A crawl in progress. */
const passSchema = z.object({
  startedAt: z.iso.datetime(),
  /** Whether the start page has been fetched and the known pages and sitemap URLs queued behind it. */
  seeded: z.boolean(),
  /** Whether it left pages it knew unvisited (the start URL failed, so their origin was unsettled). */
  partial: z.boolean(),
  /** Pages requested so far, against the page cap. */
  fetched: z.number().int().min(0),
  queue: z.array(queuedSchema),
  /** URLs already dealt with in this crawl (fetched, skipped, or covered by a canonical or redirect). */
  done: z.array(z.string()),
});
export type Pass = z.output<typeof passSchema>;

/** Versioned so that a later shape can recognise an old cursor rather than misread it. */
export const crawlCursorSchema = z.object({
  v: z.literal(1),
  /** The start URL this knowledge belongs to: a connection given another URL starts over. */
  start: z.string(),
  /** The site's origin as the crawl in progress found it (the start URL may redirect to another). */
  origin: z.string(),
  /**
   * When the last complete crawl started. A sitemap lastmod earlier than this says the page has not changed since
   * we last fetched it. Null until a crawl has completed without hitting the page cap.
   */
  since: z.iso.datetime().nullable(),
  pages: z.record(z.string(), pageStateSchema),
  /** Null between crawls. */
  pass: passSchema.nullable(),
});
export type CrawlCursor = z.output<typeof crawlCursorSchema>;
