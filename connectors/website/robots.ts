// robots.txt as RFC 9309 reads it, for the user agent ScoutBot: its group if the file has one, else `*`.
import robotsParser from 'robots-parser';

/** The product token robots.txt groups are matched against. */
export const ROBOTS_AGENT = 'ScoutBot';

/** A Crawl-delay is honoured up to this; a site asking for more is crawled at this pace rather than for days. */
export const MAX_CRAWL_DELAY_MS = 60_000;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** The site's Crawl-delay for us, in ms, capped at MAX_CRAWL_DELAY_MS. */
  readonly crawlDelayMs: number | undefined;
  /** Sitemap lines, as written (absolute URLs, possibly on another origin). */
  readonly sitemaps: readonly string[];
}

/** No robots.txt (a 4xx answer): everything may be crawled. */
export const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelayMs: undefined, sitemaps: [] };

export function parseRobots(robotsUrl: string, text: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const delaySeconds = robots.getCrawlDelay(ROBOTS_AGENT);
  return {
    // undefined means another origin, which the crawler never asks about.
    isAllowed: (url) => robots.isAllowed(url, ROBOTS_AGENT) !== false,
    crawlDelayMs:
      typeof delaySeconds === 'number' && Number.isFinite(delaySeconds) && delaySeconds > 0
        ? Math.min(MAX_CRAWL_DELAY_MS, Math.round(delaySeconds * 1000))
        : undefined,
    sitemaps: robots.getSitemaps(),
  };
}
