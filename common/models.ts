// The AI model picker of spec apps-and-connections §9 and shell-and-account §3. The ids are the wire values
// (preferred_llm, llm_preference); server/llm maps each to a provider's real model.
//
// The spec calls the picker "19 models" yet its table names 20 and the id list has 20, one name per id.
// We keep all 20: dropping one would mean guessing which, and an unknown stored preference would then break.
import type { SubscriptionLike } from './plans';
import { Feature, planAllows } from './plans';

export const ModelProvider = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  meta: 'meta',
  deepseek: 'deepseek',
  xai: 'xai',
} as const;
export type ModelProvider = (typeof ModelProvider)[keyof typeof ModelProvider];

export interface ModelDefinition {
  readonly id: string;
  /** The label shown in the picker. */
  readonly name: string;
  readonly provider: ModelProvider;
  /** Outside the picker's "open to all plans" column. */
  readonly enterpriseOnly: boolean;
}

const MODEL_LIST = [
  { id: 'openai-gpt-4.1', name: 'GPT-4.1', provider: 'openai', enterpriseOnly: false },
  { id: 'openai-gpt-4.1-mini', name: 'GPT-4.1 Mini', provider: 'openai', enterpriseOnly: false },
  { id: 'openai-gpt-4.1-nano', name: 'GPT-4.1 Nano', provider: 'openai', enterpriseOnly: false },
  { id: 'chatgpt-4o-latest', name: 'ChatGPT-4o', provider: 'openai', enterpriseOnly: false },
  { id: 'openai-gpt4-omni', name: 'GPT-4o', provider: 'openai', enterpriseOnly: true },
  { id: 'openai-o1-latest', name: 'o1', provider: 'openai', enterpriseOnly: true },
  { id: 'openai-o1-mini', name: 'o1-mini', provider: 'openai', enterpriseOnly: true },
  { id: 'openai-o3-mini', name: 'o3-mini-high', provider: 'openai', enterpriseOnly: true },
  { id: 'openai-gpt4-turbo', name: 'GPT-4 Turbo', provider: 'openai', enterpriseOnly: true },
  { id: 'anthropic-claude-sonnet', name: 'Claude Sonnet', provider: 'anthropic', enterpriseOnly: true },
  {
    id: 'anthropic-claude-sonnet-3.7',
    name: 'Claude 3.7 Sonnet',
    provider: 'anthropic',
    enterpriseOnly: true,
  },
  {
    id: 'anthropic-claude-sonnet-3.7-thinking',
    name: 'Claude 3.7 Sonnet Thinking',
    provider: 'anthropic',
    enterpriseOnly: true,
  },
  { id: 'anthropic-claude-opus', name: 'Claude Opus', provider: 'anthropic', enterpriseOnly: true },
  { id: 'google-gemini-1.5', name: 'Gemini 1.5', provider: 'google', enterpriseOnly: true },
  { id: 'google-gemini-2.0-flash', name: 'Gemini 2.0 Flash', provider: 'google', enterpriseOnly: true },
  {
    id: 'google-gemini-2.0-flash-thinking',
    name: 'Gemini 2.0 Flash Thinking',
    provider: 'google',
    enterpriseOnly: true,
  },
  { id: 'meta-llama-70B', name: 'Llama 70B', provider: 'meta', enterpriseOnly: true },
  { id: 'deepseek-r1', name: 'R1', provider: 'deepseek', enterpriseOnly: true },
  { id: 'xai-grok-beta', name: 'Grok Beta', provider: 'xai', enterpriseOnly: true },
  { id: 'xai-grok-2', name: 'Grok 2', provider: 'xai', enterpriseOnly: true },
] as const satisfies readonly ModelDefinition[];

export type ModelId = (typeof MODEL_LIST)[number]['id'];

/** In picker order: the open-to-all column first, then the enterprise-only one. */
export const MODELS: readonly ModelDefinition[] = MODEL_LIST;

export const MODEL_IDS: readonly ModelId[] = MODEL_LIST.map((model) => model.id);

/** "The latest ChatGPT-4 model": the preferred model of a user, bot or org that has not chosen one. */
export const DEFAULT_MODEL_ID: ModelId = 'chatgpt-4o-latest';

const BY_ID: ReadonlyMap<string, ModelDefinition> = new Map(MODELS.map((model) => [model.id, model]));

export function isModelId(value: string): value is ModelId {
  return BY_ID.has(value);
}

export function getModel(id: string): ModelDefinition | undefined {
  return BY_ID.get(id);
}

/**
 * Choosing a model at all needs AI model selection (BUSINESS); an enterprise-only one also needs ENTERPRISE.
 * The default needs nothing, since it is what everyone gets without choosing. Per-org model flags are the
 * caller's to apply on top.
 */
export function canSelectModel(id: string, subs: readonly SubscriptionLike[], now: Date): boolean {
  const model = getModel(id);
  if (!model) return false;
  if (model.id === DEFAULT_MODEL_ID) return true;
  if (!planAllows(subs, Feature.aiModelSelection, now)) return false;
  return !model.enterpriseOnly || planAllows(subs, Feature.enterpriseModels, now);
}
