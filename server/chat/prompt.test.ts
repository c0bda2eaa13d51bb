// The sources' token budget follows the model actually asked for; with no model the extractive answer reads less.
import { describe, expect, it } from 'vitest';
import { loadLlmEnvironment } from '../llm/config';
import { EXTRACTIVE, languageModelFor } from '../llm/registry';
import { estimateTokens } from '../search';
import type { Passage } from './passages';
import {
  buildSystemPrompt,
  EXTRACTIVE_SOURCE_TOKENS,
  MAX_SOURCE_TOKENS,
  NOT_COVERED_BY_SOURCES,
  sourceTokenBudget,
  UNKNOWN_CONTEXT_TOKENS,
  withinBudget,
} from './prompt';
import { promptInput } from './testing/prompt-input';

const compatible = (extra: Record<string, string> = {}) =>
  loadLlmEnvironment({ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1', ...extra });

describe('sourceTokenBudget', () => {
  it('gives a large known model the cap, not a share of its whole window', () => {
    expect(sourceTokenBudget(languageModelFor(compatible(), 'openai-gpt-4.1')!)).toBe(MAX_SOURCE_TOKENS);
  });

  it('sizes a model by the name actually requested: an operator’s own model is a small window', () => {
    const model = languageModelFor(compatible({ OPENAI_COMPATIBLE_MODEL: 'llama3.2:3b' }), 'openai-gpt-4.1')!;
    expect(model.providerModel).toBe('llama3.2:3b');
    expect(sourceTokenBudget(model)).toBe(UNKNOWN_CONTEXT_TOKENS / 4);
  });

  it('gives a smaller known window its share', () => {
    const model = languageModelFor(compatible(), 'google-gemini-2.0-flash-thinking')!;
    expect(sourceTokenBudget(model)).toBe(8000);
  });

  it('gives the extractive answer its own budget', () => {
    expect(sourceTokenBudget(EXTRACTIVE)).toBe(EXTRACTIVE_SOURCE_TOKENS);
  });
});

describe('withinBudget', () => {
  const passage = (id: string, words: number): Passage => ({
    id,
    title: id,
    url: null,
    source: 'notion',
    snippet: '',
    text: 'word '.repeat(words).trim(),
    authorEmail: null,
    authorName: null,
    modifiedTime: null,
    objectType: null,
    score: 1,
  });

  it('keeps passages in order while they fit, skipping one that does not', () => {
    const passages = [passage('a', 100), passage('b', 400), passage('c', 40)];
    const budget = estimateTokens(passages[0]!.text) + estimateTokens(passages[2]!.text);
    expect(withinBudget(passages, budget).map((p) => p.id)).toEqual(['a', 'c']);
  });
});

describe('buildSystemPrompt', () => {
  const input = (scope: 'APPS' | 'WEB') => promptInput({ scope });

  it('tells the model to say plainly that the workplace sources do not cover a question with no passages', () => {
    expect(buildSystemPrompt(input('APPS'))).toContain(NOT_COVERED_BY_SOURCES);
    expect(buildSystemPrompt(input('WEB'))).not.toContain(NOT_COVERED_BY_SOURCES);
  });
});
