import { useQuery } from '@tanstack/react-query';
import type { PreviewQuery, PreviewResponse } from '../../../common/api/search';
import { SEARCH_QUERY_MAX_CHARS } from '../../../common/api/search';
import { PREVIEW_CACHE_MAX_ENTRIES, PREVIEW_CACHE_TTL_MS } from '../../../common/limits';
import { TtlLruCache } from '../../../common/ttl-lru-cache';
import { searchApi } from '../../api/search';
import { useTokens } from '../../auth/session';

/**
 * Spec §7.4: previews are cached, up to 50 for 2 minutes. Keyed by the signed-in account too: a sign-out reloads
 * the page, but an account switched in another tab must never be shown the previous one's documents.
 */
const previews = new TtlLruCache<PreviewResponse>(PREVIEW_CACHE_MAX_ENTRIES, PREVIEW_CACHE_TTL_MS);

/**
 * `GET /preview` for a document, centred on the best match for `centreOn` (the text an answer cited, or the search
 * typed, so the preview opens where the reader was looking). Only for a signed-in viewer: the server answers
 * previews through the viewer's own ACL, and a signed-out reader of a public topic has none.
 */
export function useDocumentPreview(objectId: string | null, centreOn: string) {
  const tokens = useTokens();
  const query: PreviewQuery | null = objectId
    ? { objectId, q: centreOn.trim().slice(0, SEARCH_QUERY_MAX_CHARS) || undefined }
    : null;
  const key = tokens && query ? JSON.stringify([tokens.username, query.objectId, query.q ?? null]) : null;
  return useQuery({
    queryKey: ['preview', key],
    enabled: key !== null,
    queryFn: async ({ signal }) => {
      if (!key || !query) throw new Error('preview asked for nothing');
      const cached = previews.get(key);
      if (cached) return cached;
      const answer = await searchApi.preview(query, signal);
      previews.set(key, answer);
      return answer;
    },
    // the LRU above is the cache: TanStack's own would outlive its 2 minutes and its 50 entries
    gcTime: 0,
    retry: false,
  });
}
