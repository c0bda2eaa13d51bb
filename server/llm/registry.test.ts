import { describe, expect, it } from 'vitest';
import { modelDisabledFlag } from '../../common/flags';
import { DEFAULT_MODEL_ID, MODEL_IDS } from '../../common/models';
import type { SubscriptionLike } from '../../common/plans';
import { loadLlmEnvironment } from './config';
import { availableModels, EXTRACTIVE, ModelRefusedError, resolveAnswerModel, routeOf } from './registry';

const plan = (planType: SubscriptionLike['planType']): SubscriptionLike[] => [{ planType, status: 'ACTIVE' }];
const org = (
  planType: SubscriptionLike['planType'],
  flags: Record<string, boolean> = {},
  preferredLlm = null,
) => ({
  flags,
  preferredLlm,
  subscriptions: plan(planType),
});
const now = new Date('2025-06-01T00:00:00Z');

describe('routes', () => {
  it('sends each provider to its own key, and the rest to the compatible server when one is set', () => {
    const env = loadLlmEnvironment({
      OPENAI_API_KEY: 'sk-1',
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(routeOf(env, 'openai-gpt-4.1')).toBe('native');
    expect(routeOf(env, 'anthropic-claude-opus')).toBe('compatible');
    expect(routeOf(env, 'meta-llama-70B')).toBe('compatible');
    const none = loadLlmEnvironment({ ANTHROPIC_API_KEY: 'a' });
    expect(routeOf(none, 'openai-gpt-4.1')).toBeNull();
    expect(routeOf(none, 'anthropic-claude-sonnet')).toBe('native');
    expect(routeOf(loadLlmEnvironment({ LLAMA_API_KEY: 'g' }), 'meta-llama-70B')).toBe('native');
  });

  it('uses the compatible server’s one model when OPENAI_COMPATIBLE_MODEL names it', () => {
    const env = loadLlmEnvironment({
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_COMPATIBLE_MODEL: 'llama3.1',
    });
    const model = resolveAnswerModel(env, org('ENTERPRISE'), 'anthropic-claude-opus', [], now);
    expect(model).toMatchObject({ kind: 'generative', route: 'compatible', providerModel: 'llama3.1' });
  });

  it('rejects a malformed URL instead of ignoring it', () => {
    expect(() => loadLlmEnvironment({ OPENAI_COMPATIBLE_BASE_URL: 'not a url' })).toThrow(
      /OPENAI_COMPATIBLE_BASE_URL/,
    );
  });
});

describe('availableModels', () => {
  const env = loadLlmEnvironment({ OPENAI_API_KEY: 'sk-1' });

  it('lists all 20 ids: enabled when configured and allowed, with the reason otherwise', () => {
    const list = availableModels(env, org('BUSINESS'), now);
    expect(list.map((model) => model.id)).toEqual(MODEL_IDS);
    const byId = new Map(list.map((model) => [model.id, model]));
    expect(byId.get('openai-gpt-4.1')).toMatchObject({ enabled: true, enterpriseOnly: false, reason: null });
    expect(byId.get('openai-gpt4-omni')).toMatchObject({
      enabled: false,
      enterpriseOnly: true,
      reason: 'PLAN_REQUIRED',
    });
    // Upgrading would not make it run here: the list says so too.
    expect(byId.get('anthropic-claude-opus')).toMatchObject({
      enabled: false,
      reason: 'PLAN_REQUIRED',
      reasons: ['PLAN_REQUIRED', 'NOT_CONFIGURED'],
    });
    expect(list.filter((model) => model.default).map((model) => model.id)).toEqual([DEFAULT_MODEL_ID]);
  });

  it('on ENTERPRISE, gates on configuration and the per-org disable flags', () => {
    const byId = new Map(
      availableModels(env, org('ENTERPRISE', { [modelDisabledFlag('openai-o1-latest')]: true }), now).map(
        (m) => [m.id, m],
      ),
    );
    expect(byId.get('openai-gpt4-omni')?.enabled).toBe(true);
    expect(byId.get('openai-o1-latest')).toMatchObject({ enabled: false, reason: 'DISABLED_FOR_ORG' });
    expect(byId.get('anthropic-claude-opus')).toMatchObject({ enabled: false, reason: 'NOT_CONFIGURED' });
  });

  it('on TEAM only the default model can be chosen', () => {
    const enabled = availableModels(env, org('TEAM'), now).filter((model) => model.enabled);
    expect(enabled.map((model) => model.id)).toEqual([DEFAULT_MODEL_ID]);
  });
});

describe('resolveAnswerModel', () => {
  const env = loadLlmEnvironment({ OPENAI_API_KEY: 'sk-1' });

  it('refuses an enterprise model asked for by a BUSINESS org, naming the plan', () => {
    expect(() => resolveAnswerModel(env, org('BUSINESS'), 'openai-o1-latest', [], now)).toThrow(
      new ModelRefusedError(
        'PLAN_REQUIRED',
        'openai-o1-latest',
        'o1 needs the ENTERPRISE plan (feature: enterpriseModels).',
      ),
    );
  });

  it('refuses a model turned off for the org or not configured, and an unknown id', () => {
    const off = org('ENTERPRISE', { [modelDisabledFlag('openai-gpt-4.1')]: true });
    expect(() => resolveAnswerModel(env, off, 'openai-gpt-4.1', [], now)).toThrow(/turned off/);
    expect(() => resolveAnswerModel(env, org('ENTERPRISE'), 'xai-grok-2', [], now)).toThrow(/not configured/);
    expect(() => resolveAnswerModel(env, org('ENTERPRISE'), 'gpt-5', [], now)).toThrow(/Unknown model/);
  });

  it('skips stored preferences that are no longer allowed and falls back to the default', () => {
    const model = resolveAnswerModel(
      env,
      org('BUSINESS'),
      null,
      ['anthropic-claude-opus', 'openai-gpt4-omni'],
      now,
    );
    expect(model).toMatchObject({ kind: 'generative', id: DEFAULT_MODEL_ID });
    expect(resolveAnswerModel(env, org('BUSINESS'), null, ['openai-gpt-4.1-mini'], now)).toMatchObject({
      id: 'openai-gpt-4.1-mini',
      providerModel: 'gpt-4.1-mini',
    });
  });

  it('uses what the server runs when the default is not configured, and is extractive with no provider', () => {
    const anthropicOnly = loadLlmEnvironment({ ANTHROPIC_API_KEY: 'a' });
    expect(resolveAnswerModel(anthropicOnly, org('TEAM'), null, [], now)).toMatchObject({
      id: 'anthropic-claude-sonnet',
      route: 'native',
    });
    const nothing = loadLlmEnvironment({});
    expect(resolveAnswerModel(nothing, org('ENTERPRISE'), null, [], now)).toBe(EXTRACTIVE);
    expect(resolveAnswerModel(nothing, org('ENTERPRISE'), 'openai-gpt-4.1', [], now)).toBe(EXTRACTIVE);
    expect(() => resolveAnswerModel(nothing, org('BUSINESS'), 'anthropic-claude-opus', [], now)).toThrow(
      ModelRefusedError,
    );
  });
});
