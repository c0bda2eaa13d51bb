// The search scope of a question (spec apps-and-connections §4 Search scope; asking-questions §5): Apps, Web or
// AI Only, and in Apps mode which connected apps (each optionally narrowed by the specify-sources entries), files
// and verified answers. Pure, so the selection rules and the refusals are tested without a screen.
import type { AppDetails, QuerySources, SearchScope, SkillFilter } from '../../common/api/chat';
import type { LlmListResponse } from '../../common/api/llms';
import { scopeNotices, validation } from '../../common/strings';

/** What the Apps popover can offer. */
export type ScopeOptions = {
  /** Apps the member has a working connection to (their own or the org's), by shortname. */
  apps: readonly string[];
  /** Uploaded files are searchable. */
  files: boolean;
  /** Verified answers (the answers flag). */
  answers: boolean;
  /** Indexed documents the member may read, by app shortname, 'files' and 'verified_answers' (GET /sources). */
  numDocs?: Readonly<Record<string, number>>;
};

export type ScopeState = {
  scope: SearchScope;
  /** Selected apps; null means every connected app, including one connected later. */
  apps: readonly string[] | null;
  files: boolean;
  answers: boolean;
  /** The specify-sources entries per app. */
  details: Readonly<Record<string, AppDetails>>;
};

/** Apps with everything selected: the default, and what clicking the Apps tab goes back to. */
export const ALL_SOURCES_SCOPE: ScopeState = {
  scope: 'APPS',
  apps: null,
  files: true,
  answers: true,
  details: {},
};

const NOTHING_SELECTED = { apps: [], files: false, answers: false, details: {} } as const;

/**
 * Clicking a tab: Apps resets the selection to all apps, files and answers; Web selects only the web and clears
 * files and answers; AI Only clears every filter (the base-model flag is the scope itself).
 */
export function selectScope(scope: SearchScope): ScopeState {
  if (scope === 'APPS') return ALL_SOURCES_SCOPE;
  return { scope, ...NOTHING_SELECTED };
}

export function selectedApps(state: ScopeState, options: ScopeOptions): readonly string[] {
  return state.apps ?? options.apps;
}

export function isAppSelected(state: ScopeState, app: string): boolean {
  return state.apps === null || state.apps.includes(app);
}

export function toggleApp(state: ScopeState, options: ScopeOptions, app: string): ScopeState {
  const current = selectedApps(state, options);
  const apps = current.includes(app) ? current.filter((entry) => entry !== app) : [...current, app];
  return { ...state, scope: 'APPS', apps };
}

export function toggleFiles(state: ScopeState): ScopeState {
  return { ...state, scope: 'APPS', files: !state.files };
}

export function toggleAnswers(state: ScopeState): ScopeState {
  return { ...state, scope: 'APPS', answers: !state.answers };
}

/** Select all keeps what was specified per app; Clear all drops the selection, not the entries. */
export function selectAll(state: ScopeState): ScopeState {
  return { ...ALL_SOURCES_SCOPE, details: state.details };
}

export function clearAll(state: ScopeState): ScopeState {
  return { ...state, scope: 'APPS', apps: [], files: false, answers: false };
}

export function countAvailable(options: ScopeOptions): number {
  return options.apps.length + (options.files ? 1 : 0) + (options.answers ? 1 : 0);
}

export function countSelected(state: ScopeState, options: ScopeOptions): number {
  const apps = selectedApps(state, options).filter((app) => options.apps.includes(app)).length;
  return apps + (options.files && state.files ? 1 : 0) + (options.answers && state.answers ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Specify sources
// ---------------------------------------------------------------------------------------------

export const DETAIL_FIELDS = ['files', 'folders', 'drives', 'channels', 'spaces'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];

/** The fields that mean something for each app of the source-filter set. */
export const DETAIL_FIELDS_BY_APP: Readonly<Record<string, readonly DetailField[]>> = {
  gdrive: ['files', 'folders', 'drives'],
  slack: ['channels'],
  confluence: ['spaces', 'files'],
  notion: ['files'],
};

export type DetailsInput = Partial<Record<DetailField, string>>;

/** Entries are comma separated and trimmed; empty entries and empty fields are left out. */
export function parseDetails(input: DetailsInput): AppDetails {
  const details: AppDetails = {};
  for (const field of DETAIL_FIELDS) {
    const entries = (input[field] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length > 0) details[field] = entries;
  }
  return details;
}

/** Save is disabled when every field is empty. */
export function hasDetails(details: AppDetails | undefined): boolean {
  return DETAIL_FIELDS.some((field) => (details?.[field]?.length ?? 0) > 0);
}

export function detailsInputOf(details: AppDetails | undefined): DetailsInput {
  const input: DetailsInput = {};
  for (const field of DETAIL_FIELDS) input[field] = (details?.[field] ?? []).join(', ');
  return input;
}

/** Sets (or, with null, removes) an app's entries; specifying sources selects the app. */
export function withAppDetails(
  state: ScopeState,
  options: ScopeOptions,
  app: string,
  details: AppDetails | null,
): ScopeState {
  const rest = Object.fromEntries(Object.entries(state.details).filter(([name]) => name !== app));
  if (!details || !hasDetails(details)) return { ...state, details: rest };
  const selected = isAppSelected(state, app) ? state : toggleApp(state, options, app);
  return { ...selected, details: { ...rest, [app]: details } };
}

// ---------------------------------------------------------------------------------------------
// What the QUERY says, and what is refused
// ---------------------------------------------------------------------------------------------

const NONE = { search_all: false, filters: [] };

export function querySourcesOf(state: ScopeState, options: ScopeOptions): QuerySources {
  if (state.scope !== 'APPS') {
    return {
      is_base_llm: state.scope === 'AI_ONLY',
      is_web: state.scope === 'WEB',
      skills: NONE,
      files: NONE,
      answers: NONE,
    };
  }
  const apps = selectedApps(state, options);
  const specified = apps.some((app) => hasDetails(state.details[app]));
  const skills =
    state.apps === null && !specified
      ? { search_all: true, filters: [] }
      : {
          search_all: false,
          filters: apps.map((app): SkillFilter => ({
            app_name: app,
            ...(hasDetails(state.details[app]) ? { app_details: state.details[app] } : {}),
          })),
        };
  return {
    is_base_llm: false,
    is_web: false,
    skills,
    files: { search_all: options.files && state.files, filters: [] },
    answers: { search_all: options.answers && state.answers, filters: [] },
  };
}

/** What this server can do for Web and AI Only; unknown (still loading) until the model list arrives. */
export type ScopeCapabilities = Pick<LlmListResponse, 'generative' | 'webSearch'> | undefined;

/**
 * What Web and AI Only will do with the question, said under the tabs before it is sent; `blocks` when this
 * server cannot answer in that scope at all (the text is then the server's own refusal). Null for Apps.
 */
export function scopeNotice(
  state: ScopeState,
  capabilities: ScopeCapabilities,
): { text: string; blocks: boolean } | null {
  if (state.scope === 'AI_ONLY')
    return capabilities?.generative === false
      ? { text: scopeNotices.NO_MODEL_FOR_AI_ONLY, blocks: true }
      : { text: scopeNotices.AI_ONLY, blocks: false };
  if (state.scope === 'WEB')
    return capabilities?.webSearch === false
      ? { text: scopeNotices.WEB_SEARCH_NOT_CONFIGURED, blocks: true }
      : { text: scopeNotices.WEB, blocks: false };
  return null;
}

/** Why this question may not be sent as it stands (spec §5), or null. */
export function scopeRefusal(
  state: ScopeState,
  options: ScopeOptions,
  research: boolean,
  capabilities: ScopeCapabilities,
): string | null {
  if (research && state.scope === 'AI_ONLY') return validation.RESEARCH_NO_AI_ONLY;
  const notice = scopeNotice(state, capabilities);
  if (notice?.blocks) return notice.text;
  if (state.scope !== 'APPS') return null;
  if (countAvailable(options) === 0) return validation.CONNECT_APPS_FOR_APPS_MODE;
  if (countSelected(state, options) === 0) return validation.SELECT_SOURCES;
  return null;
}
