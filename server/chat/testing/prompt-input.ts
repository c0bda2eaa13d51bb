import type { PromptInput } from '../prompt';

/** A prompt's input for tests: an Acme question in Apps scope at a fixed time, with what a test sets over it. */
export const promptInput = (overrides: Partial<PromptInput> = {}): PromptInput => ({
  question: 'Capital of France?',
  scope: 'APPS',
  passages: [],
  orgName: 'Acme',
  orgInstructions: null,
  disclaimer: null,
  personalBackground: null,
  botName: null,
  botInstructions: null,
  history: [],
  now: new Date('2026-11-24T12:00:00Z'),
  tzOffsetMinutes: 0,
  deepresearch: false,
  ...overrides,
});
