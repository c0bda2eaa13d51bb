import {
  isSearchSource,
  SEARCH_FILE_TYPES,
  SEARCH_MODIFIED_RANGES,
  SEARCH_OBJECT_TYPES,
  SEARCH_SORT_VALUES,
  type SearchFileType,
  type SearchModifiedRange,
  type SearchObjectType,
  type SearchRequest,
  type SearchSortValue,
} from '../../../common/api/search';

/** The search screen's state as the page address holds it (spec shell-and-account §3 Page-address search state). */
export interface SearchAddress {
  q: string;
  app: string;
  filter: SearchObjectType;
  modified: SearchModifiedRange;
  person: string;
  sort: SearchSortValue;
  filetype: SearchFileType;
}

export const ADDRESS_DEFAULTS: Omit<SearchAddress, 'q'> = {
  app: 'all_apps',
  filter: 'all',
  modified: 'any',
  person: 'everyone',
  sort: 'relevance',
  filetype: 'any',
};

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** Reads the address; a value outside its set reads as the default. */
export function readSearchAddress(params: URLSearchParams): SearchAddress {
  const app = params.get('app');
  const person = params.get('person');
  return {
    q: params.get('q') ?? '',
    app: app && isSearchSource(app) ? app : ADDRESS_DEFAULTS.app,
    filter: oneOf(SEARCH_OBJECT_TYPES, params.get('filter'), ADDRESS_DEFAULTS.filter),
    modified: oneOf(SEARCH_MODIFIED_RANGES, params.get('modified'), ADDRESS_DEFAULTS.modified),
    person: person && EMAIL.test(person) ? person.toLowerCase() : ADDRESS_DEFAULTS.person,
    sort: oneOf(SEARCH_SORT_VALUES, params.get('sort'), ADDRESS_DEFAULTS.sort),
    filetype: oneOf(SEARCH_FILE_TYPES, params.get('filetype'), ADDRESS_DEFAULTS.filetype),
  };
}

/** Writes the state back over `current` in one order (q first), leaving defaults out of the address. */
export function writeSearchAddress(current: URLSearchParams, state: SearchAddress): URLSearchParams {
  const keys = ['app', 'filter', 'modified', 'person', 'sort', 'filetype'] as const;
  const next = new URLSearchParams(current);
  for (const key of ['q', ...keys]) next.delete(key);
  if (state.q.trim() !== '') next.set('q', state.q);
  for (const key of keys) if (state[key] !== ADDRESS_DEFAULTS[key]) next.set(key, state[key]);
  return next;
}

/** The `_search` body of an address (without the page). */
export function searchRequestOf(state: SearchAddress): Omit<SearchRequest, 'page'> {
  const [field, direction] =
    state.sort === 'relevance'
      ? (['relevance', 'desc'] as const)
      : (state.sort.split('_') as ['modified' | 'created', 'newest' | 'oldest']);
  return {
    q: state.q,
    sort: field,
    order: direction === 'oldest' ? 'asc' : 'desc',
    filters: {
      source: state.app === ADDRESS_DEFAULTS.app ? undefined : [state.app],
      object_type: state.filter === 'all' ? undefined : [state.filter],
      modified: state.modified === 'any' ? undefined : state.modified,
      person_filter: state.person === 'everyone' ? undefined : [state.person],
      filefilter: state.filetype === 'any' ? undefined : [state.filetype],
    },
  };
}
