// The search service's payloads (spec shell-and-account §3 Search result and Search state, §7.3 `_search`,
// `_autosuggest`, `_RecordRecentVisit`, `_hitsStat`, `/pin`, §7.4 `/preview`), in the spec's field names.
import { z } from 'zod';
import { isAppShortname } from '../catalogue';
import { unixSecondsSchema } from './input';

export const SEARCH_QUERY_MAX_CHARS = 1000;
export const SEARCH_PAGE_SIZES = [10, 20] as const;
export const SEARCH_DEFAULT_PAGE_SIZE = 10;
/** Deeper pages than this are not served (the index stops counting at 10,000 documents). */
export const SEARCH_MAX_PAGE = 499;
export const AUTOSUGGEST_PAGE_SIZE = 5;
export const AUTOSUGGEST_RECENT_MAX = 5;
export const PREVIEW_CONTEXT_CHARS = 1500;

/** Sources that are not apps of the catalogue. */
export const EXTRA_SEARCH_SOURCES = ['verified_answers', 'files', 'web'] as const;
export const isSearchSource = (value: string) =>
  isAppShortname(value) || (EXTRA_SEARCH_SOURCES as readonly string[]).includes(value);

/** Spec §3 page-address search state: the value sets, first value the default. */
export const SEARCH_OBJECT_TYPES = [
  'all',
  'answers',
  'articles',
  'calendar',
  'contacts',
  'files',
  'messages',
  'tasks',
] as const;
export type SearchObjectType = (typeof SEARCH_OBJECT_TYPES)[number];
export const SEARCH_FILE_TYPES = [
  'any',
  'document',
  'presentation',
  'spreadsheet',
  'pdf',
  'image',
  'other',
  'folder',
] as const;
export type SearchFileType = (typeof SEARCH_FILE_TYPES)[number];
export const SEARCH_MODIFIED_RANGES = ['any', 'day', 'week', 'month', 'year'] as const;
export type SearchModifiedRange = (typeof SEARCH_MODIFIED_RANGES)[number];
/** The address's sort values; the API takes the same as sort + order. */
export const SEARCH_SORT_VALUES = [
  'relevance',
  'modified_newest',
  'modified_oldest',
  'created_newest',
  'created_oldest',
] as const;
export type SearchSortValue = (typeof SEARCH_SORT_VALUES)[number];
export const SEARCH_SORT_FIELDS = ['relevance', 'modified', 'created'] as const;
export const SEARCH_SORT_ORDERS = ['asc', 'desc'] as const;

/** The stored file types each file-type filter value stands for ('other' is everything else). */
export const FILE_TYPE_GROUPS: Readonly<Record<Exclude<SearchFileType, 'any' | 'other'>, readonly string[]>> =
  {
    document: ['doc', 'docx', 'gdoc', 'md', 'txt', 'rtf', 'odt', 'html', 'page', 'paper'],
    presentation: ['ppt', 'pptx', 'key', 'odp', 'gslides'],
    spreadsheet: ['xls', 'xlsx', 'csv', 'ods', 'gsheet'],
    pdf: ['pdf'],
    image: ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'heic'],
    folder: ['folder'],
  };

const searchQuery = z
  .string()
  .max(SEARCH_QUERY_MAX_CHARS)
  .refine((q) => q.trim() !== '', 'q must not be empty');
const sourceName = z.string().refine(isSearchSource, 'unknown source');
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item).max(50)]).transform((value) => (Array.isArray(value) ? value : [value]));

export const searchFiltersSchema = z.strictObject({
  source: oneOrMany(sourceName).optional(),
  /** Authors' emails ('everyone' or none: no restriction). */
  person_filter: oneOrMany(z.union([z.literal('everyone'), z.email().max(320)])).optional(),
  modified: z.enum(SEARCH_MODIFIED_RANGES).optional(),
  filefilter: oneOrMany(z.enum(SEARCH_FILE_TYPES)).optional(),
  object_type: oneOrMany(z.enum(SEARCH_OBJECT_TYPES)).optional(),
});
export type SearchFiltersInput = z.input<typeof searchFiltersSchema>;
export type SearchFiltersParsed = z.output<typeof searchFiltersSchema>;

export const searchRequestSchema = z.strictObject({
  q: searchQuery,
  filters: searchFiltersSchema.optional(),
  page: z.number().int().min(0).max(SEARCH_MAX_PAGE).default(0),
  page_size: z
    .union([z.literal(SEARCH_PAGE_SIZES[0]), z.literal(SEARCH_PAGE_SIZES[1])])
    .default(SEARCH_DEFAULT_PAGE_SIZE),
  sort: z.enum(SEARCH_SORT_FIELDS).default('relevance'),
  order: z.enum(SEARCH_SORT_ORDERS).default('desc'),
});
export type SearchRequest = z.input<typeof searchRequestSchema>;

export const hitsStatRequestSchema = z.strictObject({
  q: searchQuery,
  filters: searchFiltersSchema.optional(),
});
export type HitsStatRequest = z.input<typeof hitsStatRequestSchema>;

const span = z.object({ start: z.number().int(), end: z.number().int() });
export type HighlightSpan = z.infer<typeof span>;

export const searchHitSchema = z.object({
  source: z.string(),
  objectID: z.string(),
  name: z.string(),
  owners: z.array(z.object({ name: z.string().nullable(), email: z.string().nullable() })),
  file_path: z.string().nullable(),
  webview_link: z.string().nullable(),
  deep_link: z.string().nullable(),
  /** The snippet: plain text, never markup. */
  content: z.string(),
  /** Query words in `content`, as UTF-16 offsets into it; render them as elements, never as HTML. */
  highlights: z.array(span),
  metadata: z.object({
    object_type: z.string().nullable(),
    file_type: z.string().nullable(),
    modified_time: z.string().nullable(),
    created_time: z.string().nullable(),
    author: z.string().nullable(),
  }),
  /** True on a result an admin pinned for this query. */
  pins: z.boolean(),
  missing_terms: z.array(z.string()),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const hitCountsSchema = z.object({
  byApp: z.record(z.string(), z.number().int()),
  byType: z.record(z.string(), z.number().int()),
});
export type HitCounts = z.infer<typeof hitCountsSchema>;

export const searchResponseSchema = z.object({
  hits: z.array(searchHitSchema),
  has_more: z.boolean(),
  _version: z.string(),
  people: z.array(z.object({ name: z.string(), email: z.string() })),
  hitCounts: hitCountsSchema,
  pins: z.array(searchHitSchema),
  query_spell_corrected: z.string().nullable(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const hitsStatResponseSchema = z.object({ hitCounts: hitCountsSchema });
export type HitsStatResponse = z.infer<typeof hitsStatResponseSchema>;

export const autosuggestRequestSchema = z.strictObject({
  q: z.string().max(SEARCH_QUERY_MAX_CHARS),
  page: z.number().int().min(0).max(100).default(0),
});
export type AutosuggestRequest = z.input<typeof autosuggestRequestSchema>;

export const autosuggestResponseSchema = z.object({
  titles: z.array(
    z.object({
      objectID: z.string(),
      name: z.string(),
      source: z.string(),
      webview_link: z.string().nullable(),
    }),
  ),
  people: z.array(z.object({ name: z.string(), email: z.string() })),
  recent: z.array(z.string()),
});
export type AutosuggestResponse = z.infer<typeof autosuggestResponseSchema>;

export const recordRecentVisitRequestSchema = z.strictObject({
  docSource: z.string().trim().min(1).max(200),
  objectID: z.string().max(200).optional(),
});
export const okResponseSchema = z.object({ ok: z.literal(true) });

export const pinRequestSchema = z.strictObject({
  object_id: z.string().min(1).max(200),
  q: searchQuery,
  /** Seconds since the epoch: when the admin pinned it. */
  timestamp: unixSecondsSchema,
  unpin: z.boolean().default(false),
});
export type PinRequest = z.input<typeof pinRequestSchema>;

export const previewQuerySchema = z.strictObject({
  objectId: z.string().min(1).max(200),
  /** A chunk of the document to centre on (a thread's message, a section); the best one when absent. */
  threadId: z.string().max(200).optional(),
  q: z.string().max(SEARCH_QUERY_MAX_CHARS).optional(),
});
export type PreviewQuery = z.infer<typeof previewQuerySchema>;
export const previewResponseSchema = z.object({
  objectID: z.string(),
  name: z.string(),
  source: z.string(),
  webview_link: z.string().nullable(),
  /** Plain text of the document around the chosen chunk. */
  content: z.string(),
  /** Where `content` starts in the document, and whether text was cut before or after it. */
  offset: z.number().int(),
  truncated_before: z.boolean(),
  truncated_after: z.boolean(),
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;

/** The pins' key: a query as typed, trimmed, case and spacing folded. */
export const pinQueryKey = (q: string) => q.trim().toLowerCase().replace(/\s+/g, ' ');
