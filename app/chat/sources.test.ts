import { describe, expect, it } from 'vitest';
import { querySourcesSchema } from '../../common/api/chat';
import { scopeNotices, validation } from '../../common/strings';
import {
  ALL_SOURCES_SCOPE,
  clearAll,
  countAvailable,
  countSelected,
  detailsInputOf,
  hasDetails,
  parseDetails,
  querySourcesOf,
  scopeNotice,
  scopeRefusal,
  selectAll,
  selectScope,
  toggleAnswers,
  toggleApp,
  toggleFiles,
  withAppDetails,
  type ScopeOptions,
} from './sources';

const options: ScopeOptions = { apps: ['notion', 'slack'], files: true, answers: true };

describe('search scope', () => {
  it('searches everything by default, including apps connected later', () => {
    const sources = querySourcesOf(ALL_SOURCES_SCOPE, options);
    expect(sources).toEqual({
      is_base_llm: false,
      is_web: false,
      skills: { search_all: true, filters: [] },
      files: { search_all: true, filters: [] },
      answers: { search_all: true, filters: [] },
    });
    expect(countSelected(ALL_SOURCES_SCOPE, options)).toBe(countAvailable(options));
    expect(countAvailable(options)).toBe(4);
  });

  it('names the selected apps once the selection is narrowed', () => {
    const scope = toggleFiles(toggleApp(ALL_SOURCES_SCOPE, options, 'slack'));
    expect(querySourcesOf(scope, options)).toMatchObject({
      skills: { search_all: false, filters: [{ app_name: 'notion' }] },
      files: { search_all: false },
      answers: { search_all: true },
    });
    expect(countSelected(scope, options)).toBe(2);
    expect(countSelected(toggleApp(scope, options, 'slack'), options)).toBe(3);
  });

  it('never asks for verified answers without the answers flag', () => {
    const noAnswers = { ...options, answers: false };
    expect(querySourcesOf(ALL_SOURCES_SCOPE, noAnswers).answers.search_all).toBe(false);
    expect(countAvailable(noAnswers)).toBe(3);
  });

  it('resets for Apps, selects only the web for Web, clears every filter for AI Only', () => {
    const narrowed = clearAll(ALL_SOURCES_SCOPE);
    expect(selectScope('APPS')).toEqual(ALL_SOURCES_SCOPE);
    expect(querySourcesOf(selectScope('WEB'), options)).toMatchObject({
      is_web: true,
      is_base_llm: false,
      skills: { search_all: false, filters: [] },
      files: { search_all: false },
      answers: { search_all: false },
    });
    expect(querySourcesOf(selectScope('AI_ONLY'), options)).toMatchObject({
      is_base_llm: true,
      is_web: false,
      skills: { search_all: false, filters: [] },
    });
    expect(countSelected(narrowed, options)).toBe(0);
    expect(selectAll(narrowed)).toEqual(ALL_SOURCES_SCOPE);
    // Toggling a source from another tab goes back to Apps.
    expect(toggleAnswers(selectScope('WEB')).scope).toBe('APPS');
  });

  const everything = { generative: true, webSearch: true };

  it('refuses what the spec refuses', () => {
    expect(scopeRefusal(clearAll(ALL_SOURCES_SCOPE), options, false, everything)).toBe(
      validation.SELECT_SOURCES,
    );
    expect(
      scopeRefusal(ALL_SOURCES_SCOPE, { apps: [], files: false, answers: false }, false, everything),
    ).toBe(validation.CONNECT_APPS_FOR_APPS_MODE);
    expect(scopeRefusal(selectScope('AI_ONLY'), options, true, everything)).toBe(
      validation.RESEARCH_NO_AI_ONLY,
    );
    expect(scopeRefusal(selectScope('AI_ONLY'), options, false, everything)).toBeNull();
    expect(scopeRefusal(selectScope('WEB'), options, true, everything)).toBeNull();
    expect(scopeRefusal(ALL_SOURCES_SCOPE, options, true, everything)).toBeNull();
  });

  it('says what Web and AI Only will do before sending, and refuses what this server cannot answer', () => {
    expect(scopeNotice(ALL_SOURCES_SCOPE, everything)).toBeNull();
    expect(scopeNotice(selectScope('WEB'), everything)).toEqual({ text: scopeNotices.WEB, blocks: false });
    expect(scopeNotice(selectScope('AI_ONLY'), everything)).toEqual({
      text: scopeNotices.AI_ONLY,
      blocks: false,
    });
    // while the model list loads nothing is refused: the server still has the last word
    expect(scopeNotice(selectScope('AI_ONLY'), undefined)?.blocks).toBe(false);
    const bare = { generative: false, webSearch: false };
    expect(scopeNotice(selectScope('AI_ONLY'), bare)).toEqual({
      text: scopeNotices.NO_MODEL_FOR_AI_ONLY,
      blocks: true,
    });
    expect(scopeRefusal(selectScope('AI_ONLY'), options, false, bare)).toBe(
      scopeNotices.NO_MODEL_FOR_AI_ONLY,
    );
    expect(scopeRefusal(selectScope('WEB'), options, false, bare)).toBe(
      scopeNotices.WEB_SEARCH_NOT_CONFIGURED,
    );
    // Apps answers without a model (quoted passages): nothing to refuse
    expect(scopeRefusal(ALL_SOURCES_SCOPE, options, false, bare)).toBeNull();
  });
});

describe('specify sources', () => {
  it('splits entries on commas and trims them, leaving out empty ones', () => {
    expect(parseDetails({ channels: ' #general, ,random ,', files: '  ', spaces: 'HR' })).toEqual({
      channels: ['#general', 'random'],
      spaces: ['HR'],
    });
    expect(hasDetails(parseDetails({ files: ' , ' }))).toBe(false);
    expect(detailsInputOf({ folders: ['A', 'B'] })).toMatchObject({ folders: 'A, B', files: '' });
  });

  it('sends an app with its entries, selecting it, and removes them again', () => {
    const withoutSlack = toggleApp(ALL_SOURCES_SCOPE, options, 'slack');
    const scoped = withAppDetails(withoutSlack, options, 'slack', { channels: ['general'] });
    const sources = querySourcesOf(scoped, options);
    expect(sources.skills).toEqual({
      search_all: false,
      filters: [{ app_name: 'notion' }, { app_name: 'slack', app_details: { channels: ['general'] } }],
    });
    expect(querySourcesSchema.safeParse(sources).success).toBe(true);
    // Every app still selected, one narrowed: the apps are named so the entries travel.
    const all = withAppDetails(ALL_SOURCES_SCOPE, options, 'notion', { files: ['Roadmap'] });
    expect(querySourcesOf(all, options).skills.filters).toHaveLength(2);
    const removed = withAppDetails(scoped, options, 'slack', null);
    expect(removed.details).toEqual({});
    expect(querySourcesOf(removed, options).skills.filters).toEqual([
      { app_name: 'notion' },
      { app_name: 'slack' },
    ]);
  });
});
