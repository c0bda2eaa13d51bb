// One crawl's view of the site: its origin, its robots.txt, and every request to it, each paced, each checked by
// the address guard, each redirect hop vetted before it is followed.
import {
  HttpStatusError,
  ResponseTooLargeError,
  assertPublicHost,
  createGuardedDispatcher,
  type ConnectorContext,
  type GuardedDispatcher,
  type HttpClient,
  type HttpResponse,
  type PrivateAccess,
  type RetryPolicy,
} from '../sdk';
import { MAX_PAGE_BYTES } from './page';
import { ALLOW_ALL, ROBOTS_AGENT, parseRobots, type RobotsRules } from './robots';
import { normalizeUrl, originOf } from './url';

export const USER_AGENT = `Mozilla/5.0 (compatible; ${ROBOTS_AGENT}/1.0)`;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** RFC 9309 asks crawlers to follow at least five redirects for robots.txt. */
const RESOURCE_REDIRECTS = 5;

export interface SiteSettings {
  readonly delayMs: number;
  readonly maxRedirects: number;
  readonly allowPrivateNetworks: PrivateAccess;
}

export interface SiteClientOptions {
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
}

/**
 * How redirect hops may move: 'same-origin' (a page of the site), 'adopt' (the start URL, whose redirects may
 * move the whole crawl to another origin: www to apex, http to https) or 'anywhere' (robots.txt and sitemaps).
 */
export type HopPolicy = 'same-origin' | 'adopt' | 'anywhere';

export interface FollowOptions {
  /** The largest body read; a larger one fails with ResponseTooLargeError. Default MAX_PAGE_BYTES. */
  readonly maxBodyBytes?: number;
  /** Conditional request headers for a URL we hold a copy of. */
  readonly validators?: (url: string) => Record<string, string> | undefined;
  /** Whether the crawl has dealt with a URL already: a redirect there makes this URL a duplicate. */
  readonly isDone?: (url: string) => boolean;
  /** Each redirect target taken, so the crawl does not fetch it again. */
  readonly onHop?: (url: string) => void;
}

export type Followed =
  | { readonly kind: 'response'; readonly url: string; readonly response: HttpResponse }
  /** A redirect to a URL the crawl has dealt with already. */
  | { readonly kind: 'duplicate'; readonly url: string }
  | { readonly kind: 'dropped'; readonly reason: string };

type Context = ConnectorContext<unknown, unknown>;

export class Site {
  #origin: string;
  #robots: RobotsRules = ALLOW_ALL;
  readonly #robotsByOrigin = new Map<string, RobotsRules>();
  #lastRequestEndedAt: number | undefined;

  private constructor(
    private readonly ctx: Context,
    private readonly settings: SiteSettings,
    private readonly http: HttpClient,
    private readonly dispatcher: GuardedDispatcher | undefined,
    origin: string,
  ) {
    this.#origin = origin;
  }

  /** Connects the guard and reads the origin's robots.txt. Close it when done. */
  static async open(
    ctx: Context,
    settings: SiteSettings,
    origin: string,
    clientOptions: SiteClientOptions = {},
  ): Promise<Site> {
    const access = settings.allowPrivateNetworks;
    const dispatcher = access === true ? undefined : await createGuardedDispatcher(access, ctx.logger);
    const http = ctx.http.with({
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
      },
      // A 401 or 403 on a web page is a page we may not read, not a credential of ours gone bad.
      classifyAuthFailure: () => ({ kind: 'httpError' }),
      timeoutMs: clientOptions.timeoutMs ?? 20_000,
      ...(clientOptions.retry ? { retry: clientOptions.retry } : {}),
      ...(dispatcher ? { dispatcher } : {}),
    });
    const site = new Site(ctx, settings, http, dispatcher, origin);
    try {
      site.#robots = await site.robotsFor(origin);
    } catch (error) {
      await site.close();
      throw error;
    }
    return site;
  }

  get origin(): string {
    return this.#origin;
  }

  get robots(): RobotsRules {
    return this.#robots;
  }

  /** The wait between requests: ours, or the site's Crawl-delay when it asks for more. */
  get delayMs(): number {
    return Math.max(this.settings.delayMs, this.#robots.crawlDelayMs ?? 0);
  }

  /**
   * One request, redirects not followed: paced after the previous one, and refused before connecting when the
   * address guard says so.
   */
  async get(
    url: string,
    headers?: Record<string, string>,
    maxBodyBytes = MAX_PAGE_BYTES,
  ): Promise<HttpResponse> {
    if (this.#lastRequestEndedAt !== undefined) {
      const wait = this.#lastRequestEndedAt + this.delayMs - this.ctx.now().getTime();
      if (wait > 0) await this.ctx.sleep(wait);
    }
    try {
      await assertPublicHost(new URL(url), this.settings.allowPrivateNetworks);
      return await this.http.request(url, {
        redirect: 'manual',
        maxBodyBytes,
        ...(headers ? { headers } : {}),
      });
    } finally {
      this.#lastRequestEndedAt = this.ctx.now().getTime();
    }
  }

  /**
   * Fetches a URL, following redirects one vetted hop at a time: a loop, too many hops, a hop off the site or to
   * a path robots.txt disallows drops the URL. Errors of the last request (404 as NotFoundError…) propagate.
   */
  async follow(url: string, policy: HopPolicy, options: FollowOptions = {}): Promise<Followed> {
    const chain = [url];
    const maxHops = policy === 'anywhere' ? RESOURCE_REDIRECTS : this.settings.maxRedirects;
    let current = url;
    for (;;) {
      const response = await this.get(current, options.validators?.(current), options.maxBodyBytes);
      if (!REDIRECTS.has(response.status)) return { kind: 'response', url: current, response };
      const location = response.headers.get('location');
      const target = location === null ? null : normalizeUrl(location, current);
      if (target === null) return { kind: 'dropped', reason: 'a redirect without a usable Location' };
      if (chain.includes(target)) return { kind: 'dropped', reason: 'a redirect loop' };
      if (chain.length > maxHops) return { kind: 'dropped', reason: `more than ${maxHops} redirects` };
      if (policy !== 'anywhere') {
        const targetOrigin = originOf(target);
        if (targetOrigin !== this.#origin) {
          if (policy === 'same-origin') return { kind: 'dropped', reason: 'a redirect off the site' };
          await this.adopt(targetOrigin);
        }
        if (!this.#robots.isAllowed(target)) {
          return { kind: 'dropped', reason: 'a redirect to a path robots.txt disallows' };
        }
        if (options.isDone?.(target)) return { kind: 'duplicate', url: target };
        options.onHop?.(target);
      }
      chain.push(target);
      current = target;
    }
  }

  /** Moves the crawl to the origin the start URL redirected to, with that origin's robots.txt. */
  async adopt(origin: string): Promise<void> {
    this.ctx.logger.info(
      { from: this.#origin, to: origin },
      'start URL redirects to another origin; crawling that one',
    );
    this.#robots = await this.robotsFor(origin);
    this.#origin = origin;
  }

  /**
   * An origin's robots.txt. A 4xx means there is none (crawl everything); a 5xx or a network failure that outlasts
   * the retries propagates, which stops the sync: RFC 9309 has crawlers assume a complete disallow then.
   */
  async robotsFor(origin: string): Promise<RobotsRules> {
    const cached = this.#robotsByOrigin.get(origin);
    if (cached) return cached;
    const url = `${origin}/robots.txt`;
    let rules: RobotsRules;
    try {
      const followed = await this.follow(url, 'anywhere');
      rules =
        followed.kind === 'response' && followed.response.status === 200
          ? parseRobots(url, followed.response.text())
          : ALLOW_ALL;
    } catch (error) {
      // A robots.txt past the page limit is no robots.txt anyone wrote by hand: RFC 9309 lets us ignore it.
      if (!(error instanceof HttpStatusError) && !(error instanceof ResponseTooLargeError)) throw error;
      rules = ALLOW_ALL;
    }
    this.#robotsByOrigin.set(origin, rules);
    return rules;
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }
}
