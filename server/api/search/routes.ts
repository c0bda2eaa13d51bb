import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  autosuggestRequestSchema,
  autosuggestResponseSchema,
  hitsStatRequestSchema,
  hitsStatResponseSchema,
  okResponseSchema,
  pinRequestSchema,
  previewQuerySchema,
  previewResponseSchema,
  recordRecentVisitRequestSchema,
  searchRequestSchema,
  searchResponseSchema,
  type AutosuggestResponse,
  type PreviewResponse,
} from '../../../common/api/search';
import {
  AUTOSUGGEST_CACHE_MAX_ENTRIES,
  AUTOSUGGEST_CACHE_TTL_MS,
  PREVIEW_CACHE_MAX_ENTRIES,
  PREVIEW_CACHE_TTL_MS,
  SEARCH_RATE_LIMIT,
} from '../../../common/limits';
import { recentVisits } from '../../db/schema';
import { limitPerMember } from '../../http/member-rate-limit';
import { viewerOf } from '../../policies/access';
import { TtlLruCache } from '../../../common/ttl-lru-cache';
import {
  autosuggest,
  hitsStat,
  preview,
  readableDocumentIds,
  scopeOf,
  search,
  setPin,
  suggestedMemberEmails,
  type ViewerScope,
} from './service';

/**
 * The search service (spec shell-and-account §7.3 `_search`, `_autosuggest`, `_RecordRecentVisit`, `_hitsStat`,
 * `/pin`; §7.4 `/preview`). Any member searches what they may read. Pins are org-wide (every member sees them for
 * the query), so only admins set them. The autosuggest and preview caches are per server and keyed by org and
 * viewer, so a cached answer never crosses either, and one is served only while the viewer may still read every
 * document it names (and every member it suggests is still a member).
 */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { store } = app.ctx;
  const suggestions = new TtlLruCache<AutosuggestResponse>(
    AUTOSUGGEST_CACHE_MAX_ENTRIES,
    AUTOSUGGEST_CACHE_TTL_MS,
  );
  const previews = new TtlLruCache<PreviewResponse>(PREVIEW_CACHE_MAX_ENTRIES, PREVIEW_CACHE_TTL_MS);
  // one budget for both: autosuggest runs on every keystroke, so it is where a script would hammer
  const searchBudget = limitPerMember('search', SEARCH_RATE_LIMIT);

  /** Whether the viewer may still read every one of these documents. */
  async function allReadable(scope: ViewerScope, ids: string[]): Promise<boolean> {
    const readable = await readableDocumentIds(store, scope, ids);
    return ids.every((id) => readable.has(id));
  }

  /**
   * The cached answer while `isCurrent` holds for it, else a fresh one: re-checking costs an indexed lookup or
   * two, and a revocation, deletion, group change or member removal then applies on the next request.
   */
  async function cachedFor<V>(
    cache: TtlLruCache<V>,
    key: string,
    isCurrent: (value: V) => Promise<boolean>,
    compute: () => Promise<V>,
  ): Promise<V> {
    const cached = cache.get(key);
    if (cached && (await isCurrent(cached))) return cached;
    const answer = await compute();
    cache.set(key, answer);
    return answer;
  }

  app.post(
    '/_search',
    {
      config: { access: 'signedIn' },
      preHandler: searchBudget,
      schema: { body: searchRequestSchema, response: { 200: searchResponseSchema } },
    },
    async (request) => {
      const scope = await scopeOf(store, viewerOf(request));
      return search(store, scope, request.body, app.ctx.version);
    },
  );

  app.post(
    '/_hitsStat',
    {
      config: { access: 'signedIn' },
      schema: { body: hitsStatRequestSchema, response: { 200: hitsStatResponseSchema } },
    },
    async (request) => ({
      hitCounts: await hitsStat(store, await scopeOf(store, viewerOf(request)), request.body),
    }),
  );

  app.post(
    '/_autosuggest',
    {
      config: { access: 'signedIn' },
      preHandler: searchBudget,
      schema: { body: autosuggestRequestSchema, response: { 200: autosuggestResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const key = JSON.stringify([viewer.orgId, viewer.userId, request.body.q, request.body.page]);
      const scope = await scopeOf(store, viewer);
      return cachedFor(
        suggestions,
        key,
        async (answer) => {
          const emails = answer.people.map((person) => person.email);
          const members = await suggestedMemberEmails(store, scope.orgId, emails);
          return (
            emails.every((email) => members.has(email)) &&
            (await allReadable(
              scope,
              answer.titles.map((title) => title.objectID),
            ))
          );
        },
        () => autosuggest(store, scope, request.body),
      );
    },
  );

  app.post(
    '/_RecordRecentVisit',
    {
      config: { access: 'signedIn' },
      schema: { body: recordRecentVisitRequestSchema, response: { 200: okResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      await store.db
        .insert(recentVisits)
        .values({ orgId: viewer.orgId, userId: viewer.userId, docSource: request.body.docSource });
      return { ok: true as const };
    },
  );

  app.post(
    '/pin',
    {
      config: { access: 'admin' },
      schema: { body: pinRequestSchema, response: { 200: okResponseSchema } },
    },
    async (request) => {
      await setPin(store, await scopeOf(store, viewerOf(request)), request.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/preview',
    {
      config: { access: 'signedIn' },
      schema: { querystring: previewQuerySchema, response: { 200: previewResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { objectId, threadId, q } = request.query;
      const key = JSON.stringify([viewer.orgId, viewer.userId, objectId, threadId ?? null, q ?? null]);
      const scope = await scopeOf(store, viewer);
      return cachedFor(
        previews,
        key,
        (answer) => allReadable(scope, [answer.objectID]),
        () => preview(store, scope, request.query),
      );
    },
  );
};
