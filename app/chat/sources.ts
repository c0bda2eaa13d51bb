// The search scope of a question (spec apps-and-connections §4 Search scope; asking-questions §5): Apps, Web or
// AI Only, and in Apps mode which sources. Pure, so the refusals are tested without a screen.
import type { QuerySources, SearchScope } from '../../common/api/chat';
import { validation } from '../../common/strings';

/**
 * What the Apps popover offers. Connected apps are one entry (every app the asker can read) until the server
 * lists an org's connections; files and verified answers are their own entries.
 */
export const APP_SOURCES = ['apps', 'files', 'answers'] as const;
export type AppSource = (typeof APP_SOURCES)[number];

export type ScopeState = { scope: SearchScope; selected: readonly AppSource[] };

export function availableSources(options: { answers: boolean }): AppSource[] {
  return APP_SOURCES.filter((source) => source !== 'answers' || options.answers);
}

/** The default: Apps with everything available selected. */
export function initialScope(available: readonly AppSource[]): ScopeState {
  return { scope: 'APPS', selected: [...available] };
}

/** Clicking a tab: Apps resets to everything, Web and AI Only clear the app selection. */
export function selectScope(scope: SearchScope, available: readonly AppSource[]): ScopeState {
  return { scope, selected: scope === 'APPS' ? [...available] : [] };
}

export function toggleSource(state: ScopeState, source: AppSource): ScopeState {
  const selected = state.selected.includes(source)
    ? state.selected.filter((entry) => entry !== source)
    : [...state.selected, source];
  return { scope: 'APPS', selected };
}

export function querySourcesOf(state: ScopeState): QuerySources {
  const all = (source: AppSource) => ({ search_all: state.selected.includes(source), filters: [] });
  if (state.scope === 'AI_ONLY') {
    return {
      is_base_llm: true,
      is_web: false,
      skills: { search_all: false, filters: [] },
      files: { search_all: false, filters: [] },
      answers: { search_all: false, filters: [] },
    };
  }
  if (state.scope === 'WEB') {
    return {
      is_base_llm: false,
      is_web: true,
      skills: { search_all: false, filters: [] },
      files: { search_all: false, filters: [] },
      answers: { search_all: false, filters: [] },
    };
  }
  return {
    is_base_llm: false,
    is_web: false,
    skills: all('apps'),
    files: all('files'),
    answers: all('answers'),
  };
}

/** Why this question may not be sent as it stands (spec §5), or null. */
export function scopeRefusal(
  state: ScopeState,
  available: readonly AppSource[],
  research: boolean,
): string | null {
  if (research && state.scope === 'AI_ONLY') return validation.RESEARCH_NO_AI_ONLY;
  if (state.scope !== 'APPS') return null;
  if (available.length === 0) return validation.CONNECT_APPS_FOR_APPS_MODE;
  if (state.selected.length === 0) return validation.SELECT_SOURCES;
  return null;
}
