import { describe, it, expect } from 'vitest';
import { DEFAULT_MODEL_ID, MODELS, MODEL_IDS, canSelectModel, getModel, isModelId } from './models';

const now = new Date('2025-06-01T12:00:00Z');

describe('models', () => {
  it('has the 20 ids of the spec, each once', () => {
    expect(MODEL_IDS).toHaveLength(20);
    expect(new Set(MODEL_IDS).size).toBe(20);
    expect(new Set(MODELS.map((m) => m.name)).size).toBe(20);
    expect([...MODEL_IDS].sort()).toEqual(
      [
        'openai-o1-mini',
        'openai-o1-latest',
        'openai-o3-mini',
        'openai-gpt4-omni',
        'openai-gpt-4.1',
        'openai-gpt-4.1-mini',
        'openai-gpt-4.1-nano',
        'chatgpt-4o-latest',
        'openai-gpt4-turbo',
        'anthropic-claude-sonnet',
        'anthropic-claude-sonnet-3.7',
        'anthropic-claude-sonnet-3.7-thinking',
        'anthropic-claude-opus',
        'google-gemini-1.5',
        'google-gemini-2.0-flash',
        'google-gemini-2.0-flash-thinking',
        'meta-llama-70B',
        'deepseek-r1',
        'xai-grok-beta',
        'xai-grok-2',
      ].sort(),
    );
  });

  it('opens exactly the first four to all plans', () => {
    const open = MODELS.filter((m) => !m.enterpriseOnly).map((m) => m.name);
    expect(open).toEqual(['GPT-4.1', 'GPT-4.1 Mini', 'GPT-4.1 Nano', 'ChatGPT-4o']);
    expect(MODELS.slice(0, 4).every((m) => !m.enterpriseOnly)).toBe(true);
  });

  it('names ids sensibly', () => {
    expect(getModel('openai-gpt4-omni')?.name).toBe('GPT-4o');
    expect(getModel('openai-o3-mini')?.name).toBe('o3-mini-high');
    expect(getModel('deepseek-r1')?.provider).toBe('deepseek');
    expect(getModel('nope')).toBeUndefined();
    expect(isModelId('xai-grok-2')).toBe(true);
  });

  it('defaults to the latest ChatGPT-4 model', () => {
    expect(DEFAULT_MODEL_ID).toBe('chatgpt-4o-latest');
    expect(getModel(DEFAULT_MODEL_ID)?.enterpriseOnly).toBe(false);
  });

  it('gates selection by plan', () => {
    const business = [{ planType: 'BUSINESS', status: 'ACTIVE' }] as const;
    const enterprise = [{ planType: 'ENTERPRISE', status: 'ACTIVE' }] as const;
    const team = [{ planType: 'TEAM', status: 'ACTIVE' }] as const;
    expect(canSelectModel(DEFAULT_MODEL_ID, team, now)).toBe(true);
    expect(canSelectModel('openai-gpt-4.1', team, now)).toBe(false);
    expect(canSelectModel('openai-gpt-4.1', business, now)).toBe(true);
    expect(canSelectModel('anthropic-claude-opus', business, now)).toBe(false);
    expect(canSelectModel('anthropic-claude-opus', enterprise, now)).toBe(true);
    expect(canSelectModel('unknown', enterprise, now)).toBe(false);
  });
});
