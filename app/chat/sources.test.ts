import { describe, expect, it } from 'vitest';
import { validation } from '../../common/strings';
import {
  availableSources,
  initialScope,
  querySourcesOf,
  scopeRefusal,
  selectScope,
  toggleSource,
} from './sources';

const available = availableSources({ answers: true });

describe('search scope', () => {
  it('offers verified answers only with the answers flag', () => {
    expect(availableSources({ answers: false })).toEqual(['apps', 'files']);
    expect(available).toEqual(['apps', 'files', 'answers']);
  });

  it('searches every selected kind in Apps mode', () => {
    const sources = querySourcesOf(toggleSource(initialScope(available), 'files'));
    expect(sources).toMatchObject({
      is_base_llm: false,
      is_web: false,
      skills: { search_all: true },
      files: { search_all: false },
      answers: { search_all: true },
    });
  });

  it('clears the app selection for Web and AI Only, and resets it for Apps', () => {
    expect(querySourcesOf(selectScope('WEB', available))).toMatchObject({
      is_web: true,
      skills: { search_all: false },
    });
    expect(querySourcesOf(selectScope('AI_ONLY', available))).toMatchObject({ is_base_llm: true });
    expect(selectScope('APPS', available).selected).toEqual(available);
  });

  it('refuses what the spec refuses', () => {
    expect(scopeRefusal({ scope: 'APPS', selected: [] }, available, false)).toBe(validation.SELECT_SOURCES);
    expect(scopeRefusal({ scope: 'APPS', selected: [] }, [], false)).toBe(
      validation.CONNECT_APPS_FOR_APPS_MODE,
    );
    expect(scopeRefusal(selectScope('AI_ONLY', available), available, true)).toBe(
      validation.RESEARCH_NO_AI_ONLY,
    );
    expect(scopeRefusal(initialScope(available), available, true)).toBeNull();
  });
});
