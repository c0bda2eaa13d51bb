// `GET /api/v1/llms`: the model picker's list (spec apps-and-connections §9) as this server can serve it.
import { z } from 'zod';

export const LLM_UNAVAILABLE_REASONS = [
  /** No API key (or compatible endpoint) for the model's provider on this server. */
  'NOT_CONFIGURED',
  /** Turned off for the org by its disableModel flag. */
  'DISABLED_FOR_ORG',
  /** Enterprise-only, or choosing a model at all needs BUSINESS. */
  'PLAN_REQUIRED',
] as const;
export const llmUnavailableReasonSchema = z.enum(LLM_UNAVAILABLE_REASONS);
export type LlmUnavailableReason = z.infer<typeof llmUnavailableReasonSchema>;

export const llmOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  /** Selectable by this member now. */
  enabled: z.boolean(),
  enterpriseOnly: z.boolean(),
  /** The model used when none is chosen (the org's preferred model, else DEFAULT_MODEL_ID). */
  default: z.boolean(),
  /** Why it is not enabled; null when enabled. */
  reason: llmUnavailableReasonSchema.nullable(),
  /** Every reason it is not enabled, `reason` first: an upgrade does not help a model the server cannot run. */
  reasons: z.array(llmUnavailableReasonSchema),
});
export type LlmOption = z.infer<typeof llmOptionSchema>;

export const llmListResponseSchema = z.object({
  llms: z.array(llmOptionSchema),
  /** False when no provider is configured at all: answers are then extractive (quoted passages). */
  generative: z.boolean(),
  /** False when no web search provider is configured: Web questions are refused. */
  webSearch: z.boolean(),
});
export type LlmListResponse = z.infer<typeof llmListResponseSchema>;
