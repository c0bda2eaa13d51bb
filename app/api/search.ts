import {
  autosuggestResponseSchema,
  hitsStatResponseSchema,
  okResponseSchema,
  previewResponseSchema,
  searchResponseSchema,
  type AutosuggestRequest,
  type AutosuggestResponse,
  type HitsStatRequest,
  type HitsStatResponse,
  type PreviewQuery,
  type PreviewResponse,
  type SearchRequest,
  type SearchResponse,
} from '../../common/api/search';
import { api } from './client';

/** The search service (spec shell-and-account §7.3, §7.4 preview). */
export const searchApi = {
  search: (body: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> =>
    api.post('_search', { body, signal, schema: searchResponseSchema }),
  hitsStat: (body: HitsStatRequest, signal?: AbortSignal): Promise<HitsStatResponse> =>
    api.post('_hitsStat', { body, signal, schema: hitsStatResponseSchema }),
  autosuggest: (body: AutosuggestRequest, signal?: AbortSignal): Promise<AutosuggestResponse> =>
    api.post('_autosuggest', { body, signal, schema: autosuggestResponseSchema }),
  recordVisit: (docSource: string, objectID?: string) =>
    api.post('_RecordRecentVisit', { body: { docSource, objectID }, schema: okResponseSchema }),
  preview: (query: PreviewQuery, signal?: AbortSignal): Promise<PreviewResponse> =>
    api.get('preview', { query, signal, schema: previewResponseSchema }),
};
