/**
 * The model registry (DESIGN §6): the spec's 20 model ids mapped to real providers through the AI SDK, which of
 * them this server can serve, and which one a question gets.
 *
 * Choosing rules, enforced here for every question:
 * - a model named in the question (llm_preference) that the org's plan does not allow (any non-default model needs
 *   BUSINESS, an enterprise-only one ENTERPRISE), that the org turned off (disableModel flag) or that has no
 *   provider configured is refused with a clear error: the asker picked it, so silently answering with another
 *   model would mislead them;
 * - a stored preference (the bot's, the member's, the org's) that is no longer allowed, off or unconfigured is
 *   skipped: it was chosen earlier, perhaps under another plan, and the question should still be answered;
 * - then the default model; then, when the server cannot serve the default, the first model it can serve that the
 *   org has not turned off, whatever the plan: nobody chose it, it is simply what this server runs;
 * - with no provider configured at all, questions get the extractive answerer (quoted passages).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createXai } from '@ai-sdk/xai';
import type { LanguageModel, streamText } from 'ai';
import type { LlmOption, LlmUnavailableReason } from '../../common/api/llms';
import { isModelDisabled, parseFlags } from '../../common/flags';
import {
  canSelectModel,
  DEFAULT_MODEL_ID,
  getModel,
  MODELS,
  type ModelDefinition,
  type ModelId,
} from '../../common/models';
import { Feature, requiredPlan, type SubscriptionLike } from '../../common/plans';
import type { LlmEnvironment } from './config';

export type ProviderOptions = NonNullable<Parameters<typeof streamText>[0]['providerOptions']>;

/** How each spec id is asked of its provider. Names follow the providers' current aliases; LLM_MODEL_OVERRIDES wins. */
const PROVIDER_MODELS: Readonly<Record<ModelId, { model: string; options?: ProviderOptions }>> = {
  'openai-gpt-4.1': { model: 'gpt-4.1' },
  'openai-gpt-4.1-mini': { model: 'gpt-4.1-mini' },
  'openai-gpt-4.1-nano': { model: 'gpt-4.1-nano' },
  'chatgpt-4o-latest': { model: 'chatgpt-4o-latest' },
  'openai-gpt4-omni': { model: 'gpt-4o' },
  'openai-o1-latest': { model: 'o1' },
  'openai-o1-mini': { model: 'o1-mini' },
  'openai-o3-mini': { model: 'o3-mini', options: { openai: { reasoningEffort: 'high' } } },
  'openai-gpt4-turbo': { model: 'gpt-4-turbo' },
  'anthropic-claude-sonnet': { model: 'claude-sonnet-4-5' },
  'anthropic-claude-sonnet-3.7': { model: 'claude-3-7-sonnet-latest' },
  'anthropic-claude-sonnet-3.7-thinking': {
    model: 'claude-3-7-sonnet-latest',
    options: { anthropic: { thinking: { type: 'enabled', budgetTokens: 4000 } } },
  },
  'anthropic-claude-opus': { model: 'claude-opus-4-1' },
  'google-gemini-1.5': { model: 'gemini-1.5-pro' },
  'google-gemini-2.0-flash': { model: 'gemini-2.0-flash' },
  'google-gemini-2.0-flash-thinking': { model: 'gemini-2.0-flash-thinking-exp' },
  'meta-llama-70B': { model: 'llama-3.3-70b-versatile' },
  'deepseek-r1': { model: 'deepseek-reasoner' },
  'xai-grok-beta': { model: 'grok-beta' },
  'xai-grok-2': { model: 'grok-2-1212' },
};

/** Where a model's requests go: its own provider, or the OpenAI-compatible server standing in for it. */
export type ModelRoute = 'native' | 'compatible';

export type ResolvedModel = {
  kind: 'generative';
  id: ModelId;
  definition: ModelDefinition;
  route: ModelRoute;
  /** The provider's model name actually requested. */
  providerModel: string;
  model: LanguageModel;
  providerOptions: ProviderOptions | undefined;
};

/** No provider at all: answers quote the best passages. */
export type ExtractiveModel = { kind: 'extractive'; id: 'extractive' };

export type AnswerModel = ResolvedModel | ExtractiveModel;

export const EXTRACTIVE: ExtractiveModel = { kind: 'extractive', id: 'extractive' };

function hasNativeProvider(env: LlmEnvironment, definition: ModelDefinition): boolean {
  switch (definition.provider) {
    case 'openai':
      return env.openai !== null;
    case 'anthropic':
      return env.anthropic !== null;
    case 'google':
      return env.google !== null;
    case 'xai':
      return env.xai !== null;
    case 'deepseek':
      return env.deepseek !== null;
    case 'meta':
      return env.llama !== null;
  }
}

export function routeOf(env: LlmEnvironment, id: string): ModelRoute | null {
  const definition = getModel(id);
  if (!definition) return null;
  if (hasNativeProvider(env, definition)) return 'native';
  return env.compatible ? 'compatible' : null;
}

/** Whether any model at all can be served (else answers are extractive). */
export function anyProviderConfigured(env: LlmEnvironment): boolean {
  return MODELS.some((model) => routeOf(env, model.id) !== null);
}

function providerModelName(env: LlmEnvironment, id: ModelId): string {
  const override = env.modelOverrides[id];
  if (override) return override;
  if (id === 'meta-llama-70B' && env.llama) return env.llama.model;
  return PROVIDER_MODELS[id].model;
}

/** The AI SDK model for an id, or null when nothing serves it. */
export function languageModelFor(env: LlmEnvironment, id: ModelId): ResolvedModel | null {
  const definition = getModel(id);
  const route = routeOf(env, id);
  if (!definition || !route) return null;
  const base = { kind: 'generative' as const, id, definition, route };
  if (route === 'compatible' && env.compatible) {
    const providerModel = env.compatible.model ?? providerModelName(env, id);
    const provider = createOpenAICompatible({
      name: 'compatible',
      baseURL: env.compatible.baseURL,
      apiKey: env.compatible.apiKey,
    });
    return { ...base, providerModel, model: provider.chatModel(providerModel), providerOptions: undefined };
  }
  const providerModel = providerModelName(env, id);
  const providerOptions = env.modelOverrides[id] ? undefined : PROVIDER_MODELS[id].options;
  const model = nativeModel(env, definition, providerModel);
  if (!model) return null;
  return { ...base, providerModel, model, providerOptions };
}

function nativeModel(env: LlmEnvironment, definition: ModelDefinition, name: string): LanguageModel | null {
  switch (definition.provider) {
    case 'openai':
      return env.openai
        ? createOpenAI({ apiKey: env.openai.apiKey, baseURL: env.openai.baseURL }).chat(name)
        : null;
    case 'anthropic':
      return env.anthropic ? createAnthropic({ apiKey: env.anthropic.apiKey })(name) : null;
    case 'google':
      return env.google ? createGoogleGenerativeAI({ apiKey: env.google.apiKey })(name) : null;
    case 'xai':
      return env.xai ? createXai({ apiKey: env.xai.apiKey })(name) : null;
    case 'deepseek':
      return env.deepseek ? createDeepSeek({ apiKey: env.deepseek.apiKey })(name) : null;
    case 'meta':
      return env.llama
        ? createOpenAICompatible({
            name: 'llama',
            baseURL: env.llama.baseURL,
            apiKey: env.llama.apiKey,
          }).chatModel(name)
        : null;
  }
}

/** What the model rules read about the org. */
export type ModelOrg = {
  flags: unknown;
  preferredLlm: string | null;
  subscriptions: readonly SubscriptionLike[];
};

/**
 * Every reason a model cannot be used by this org now (none when it can), plan first: it is what the picker's star
 * shows. All of them, so the picker does not offer an upgrade for a model this server could not run anyway.
 */
export function unavailableReasons(
  env: LlmEnvironment,
  org: ModelOrg,
  id: string,
  now: Date,
): LlmUnavailableReason[] {
  const reasons: LlmUnavailableReason[] = [];
  if (!canSelectModel(id, org.subscriptions, now)) reasons.push('PLAN_REQUIRED');
  if (isModelDisabled(parseFlags(org.flags), id)) reasons.push('DISABLED_FOR_ORG');
  if (!routeOf(env, id)) reasons.push('NOT_CONFIGURED');
  return reasons;
}

/** The first reason a model cannot be used by this org now, or null when it can. */
export function unavailableReason(
  env: LlmEnvironment,
  org: ModelOrg,
  id: string,
  now: Date,
): LlmUnavailableReason | null {
  return unavailableReasons(env, org, id, now)[0] ?? null;
}

/** The model used when nobody chose one: the org's preferred model when it may be used, else the default. */
export function defaultModelId(env: LlmEnvironment, org: ModelOrg, now: Date): ModelId {
  const preferred = org.preferredLlm ? getModel(org.preferredLlm) : undefined;
  if (preferred && unavailableReason(env, org, preferred.id, now) === null) return preferred.id as ModelId;
  return DEFAULT_MODEL_ID;
}

/** The picker's list: every id with whether this org may use it on this server. */
export function availableModels(env: LlmEnvironment, org: ModelOrg, now = new Date()): LlmOption[] {
  const fallback = defaultModelId(env, org, now);
  return MODELS.map((model) => {
    const reasons = unavailableReasons(env, org, model.id, now);
    const reason = reasons[0] ?? null;
    return {
      id: model.id,
      name: model.name,
      provider: model.provider,
      enabled: reason === null,
      enterpriseOnly: model.enterpriseOnly,
      default: model.id === fallback,
      reason,
      reasons,
    };
  });
}

export class ModelRefusedError extends Error {
  override name = 'ModelRefusedError';
  constructor(
    readonly reason: LlmUnavailableReason,
    readonly modelId: string,
    message: string,
  ) {
    super(message);
  }
}

function refusalMessage(reason: LlmUnavailableReason, id: string): string {
  const name = getModel(id)?.name ?? id;
  switch (reason) {
    case 'PLAN_REQUIRED': {
      const feature = getModel(id)?.enterpriseOnly ? Feature.enterpriseModels : Feature.aiModelSelection;
      return `${name} needs the ${requiredPlan(feature)} plan (feature: ${feature}).`;
    }
    case 'DISABLED_FOR_ORG':
      return `${name} is turned off for this workspace. Choose another model.`;
    case 'NOT_CONFIGURED':
      return `${name} is not configured on this Scout server. Choose another model.`;
  }
}

/**
 * The model a question is answered with. `requested` is the asker's explicit choice (refused when unusable);
 * `stored` are earlier preferences, best first (bot, member), skipped when unusable.
 */
export function resolveAnswerModel(
  env: LlmEnvironment,
  org: ModelOrg,
  requested: string | null | undefined,
  stored: readonly (string | null | undefined)[],
  now = new Date(),
): AnswerModel {
  if (requested) {
    if (!getModel(requested))
      throw new ModelRefusedError('NOT_CONFIGURED', requested, `Unknown model: ${requested}.`);
    const reason = unavailableReason(env, org, requested, now);
    // With no provider at all every question is extractive, whatever was picked; the plan rule still holds.
    if (reason === 'NOT_CONFIGURED' && !anyProviderConfigured(env)) return EXTRACTIVE;
    if (reason) throw new ModelRefusedError(reason, requested, refusalMessage(reason, requested));
    return languageModelFor(env, requested as ModelId) ?? EXTRACTIVE;
  }
  if (!anyProviderConfigured(env)) return EXTRACTIVE;
  for (const id of [...stored, org.preferredLlm, DEFAULT_MODEL_ID]) {
    if (!id || !getModel(id) || unavailableReason(env, org, id, now) !== null) continue;
    const resolved = languageModelFor(env, id as ModelId);
    if (resolved) return resolved;
  }
  const flags = parseFlags(org.flags);
  for (const model of MODELS) {
    if (isModelDisabled(flags, model.id)) continue;
    const resolved = languageModelFor(env, model.id as ModelId);
    if (resolved) return resolved;
  }
  return EXTRACTIVE;
}
