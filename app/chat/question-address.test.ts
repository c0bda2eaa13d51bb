import { describe, expect, it } from 'vitest';
import { askChoicesOf, chatQuestionPath, QUESTION_PARAM, type AskChoices } from './question-address';
import { ALL_SOURCES_SCOPE } from './sources';

describe('a question asked from elsewhere', () => {
  it('travels to /chat in the q parameter, encoded', () => {
    const path = chatQuestionPath('Who owns billing & invoices? 100%');
    const url = new URL(path, 'http://scout.test');
    expect(url.pathname).toBe('/chat');
    expect(url.searchParams.get(QUESTION_PARAM)).toBe('Who owns billing & invoices? 100%');
  });

  it('carries the choices made with it, and nothing that is not choices', () => {
    const choices: AskChoices = {
      scope: { ...ALL_SOURCES_SCOPE, apps: ['slack'], details: { slack: { channels: ['#eng'] } } },
      llm: 'openai-gpt-4.1',
      research: true,
    };
    expect(askChoicesOf(structuredClone(choices))).toEqual(choices);
    expect(askChoicesOf(null)).toBeUndefined();
    expect(askChoicesOf({ usr: 'another page' })).toBeUndefined();
    expect(askChoicesOf({ ...choices, scope: { ...choices.scope, scope: 'EVERYTHING' } })).toBeUndefined();
  });
});
