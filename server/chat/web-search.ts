/**
 * Web mode's search (spec apps-and-connections §4 Search scope). One interface and one implementation for a Brave
 * Search style JSON API, configured by WEB_SEARCH_API_KEY (and WEB_SEARCH_BASE_URL, so tests point it at a local
 * server). Without a key there is no provider and Web questions are refused with WEB_SEARCH_NOT_CONFIGURED.
 */
import { createHash } from 'node:crypto';
import { ReferenceSource } from '../../common/api/messages';
import { scopeNotices } from '../../common/strings';
import type { LlmEnvironment } from '../llm/config';
import type { Passage } from './passages';

export const WEB_SEARCH_NOT_CONFIGURED = scopeNotices.WEB_SEARCH_NOT_CONFIGURED;
export const WEB_SEARCH_FAILED = 'The web search failed. Please try again, or switch to Apps or AI Only.';

export type WebResult = { title: string; url: string; snippet: string; publishedAt: Date | null };

export interface WebSearchProvider {
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<WebResult[]>;
}

export class WebSearchError extends Error {
  override name = 'WebSearchError';
}

const TIMEOUT_MS = 10_000;

function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .trim();
}

type BraveResult = { title?: unknown; url?: unknown; description?: unknown; page_age?: unknown };

/** Brave Search's `GET /res/v1/web/search` with the X-Subscription-Token header. */
export class BraveWebSearch implements WebSearchProvider {
  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
  ) {}

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<WebResult[]> {
    const url = new URL('/res/v1/web/search', this.baseUrl);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(Math.min(Math.max(options.limit, 1), 20)));
    const signals = [AbortSignal.timeout(TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', 'x-subscription-token': this.apiKey },
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      throw new WebSearchError(`web search unreachable: ${String(error)}`);
    }
    if (!response.ok) throw new WebSearchError(`web search answered ${response.status}`);
    const body = (await response.json()) as { web?: { results?: BraveResult[] } };
    const results = body.web?.results ?? [];
    return results
      .filter((result) => typeof result.url === 'string' && /^https?:\/\//i.test(result.url))
      .slice(0, options.limit)
      .map((result) => {
        const published = typeof result.page_age === 'string' ? new Date(result.page_age) : null;
        return {
          title: typeof result.title === 'string' ? stripTags(result.title) : String(result.url),
          url: String(result.url),
          snippet: typeof result.description === 'string' ? stripTags(result.description) : '',
          publishedAt: published && !Number.isNaN(published.getTime()) ? published : null,
        };
      });
  }
}

export function webSearchProviderFor(env: LlmEnvironment): WebSearchProvider | null {
  return env.webSearch ? new BraveWebSearch(env.webSearch.apiKey, env.webSearch.baseURL) : null;
}

export function webPassage(result: WebResult, rank: number): Passage {
  return {
    id: `web-${createHash('sha256').update(result.url).digest('hex').slice(0, 24)}`,
    title: result.title,
    url: result.url,
    source: ReferenceSource.web,
    snippet: result.snippet,
    text: result.snippet,
    authorEmail: null,
    authorName: null,
    modifiedTime: result.publishedAt,
    objectType: null,
    // the provider's order is its ranking
    score: 1 / (rank + 1),
  };
}

export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}
