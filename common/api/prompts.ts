// Workflows, the spec's prompts (asking-questions §3, §5; shell-and-account §2.7, §7.4): a title, a template put in
// the question box, and a preferred model. The spec's calls are GET /prompts (query), GET /prompts/promptsById/{id},
// GET /prompts/recommended and POST /prompts/prompt_used/{id}; creating, editing and deleting are ours (POST /prompts,
// PATCH /prompts/{id}, DELETE /prompts/{id}).
import { z } from 'zod';
import { RECOMMENDED_WORKFLOWS_SHOWN } from '../limits';
import { isModelId } from '../models';
import { QUERY_MAX_CHARS } from './chat';

/** PRIVATE: the author's alone. ORG: every member of the org may read and use it. */
export const PROMPT_VISIBILITIES = ['PRIVATE', 'ORG'] as const;
export const promptVisibilitySchema = z.enum(PROMPT_VISIBILITIES);
export type PromptVisibility = z.infer<typeof promptVisibilitySchema>;

/** Ours: the spec states no limit. */
export const PROMPT_TITLE_MAX_CHARS = 100;
/** A template goes into the question box, so it is held to the box's own limit. */
export const PROMPT_TEMPLATE_MAX_CHARS = QUERY_MAX_CHARS;
/** Ours: the most a list answers; a workspace with more finds the rest by searching. */
export const PROMPTS_LISTED = 200;
/** Ours: how long the workflow search waits for typing to pause. */
export const PROMPT_SEARCH_DEBOUNCE_MS = 200;
/** The recommended row: the first 8 (spec asking-questions, limits; shell-and-account §2.7). */
export const PROMPTS_RECOMMENDED = RECOMMENDED_WORKFLOWS_SHOWN;

/** Ours: the messages of the refusals (the spec quotes none). */
export const promptMessages = {
  NOT_FOUND: 'Workflow not found.',
  EDIT_NOT_ALLOWED:
    'Only the author of this workflow, or an admin for a workflow shared with the workspace, can change it.',
  VISIBILITY_AUTHOR_ONLY: 'Only the author of this workflow can change who sees it.',
  RECOMMEND_ADMIN_ONLY: 'Only workspace admins can recommend workflows.',
  RECOMMEND_NEEDS_ORG: 'Only a workflow shared with the workspace can be recommended.',
  UNKNOWN_MODEL: 'Unknown model.',
  TITLE_REQUIRED: 'Title is required',
  TEMPLATE_REQUIRED: 'Template is required',
  titleTooLong: (max: number) => `Title must be at most ${max} characters`,
  templateTooLong: (max: number) => `Template must be at most ${max} characters`,
} as const;

export const promptTitleSchema = z
  .string()
  .trim()
  .min(1, promptMessages.TITLE_REQUIRED)
  .max(PROMPT_TITLE_MAX_CHARS, promptMessages.titleTooLong(PROMPT_TITLE_MAX_CHARS));

export const promptTemplateSchema = z
  .string()
  .trim()
  .min(1, promptMessages.TEMPLATE_REQUIRED)
  .max(PROMPT_TEMPLATE_MAX_CHARS, promptMessages.templateTooLong(PROMPT_TEMPLATE_MAX_CHARS));

/** One of the model picker's ids (common/models.ts), or null for the default model. */
export const preferredLlmSchema = z.string().refine(isModelId, promptMessages.UNKNOWN_MODEL).nullable();

/** `POST /prompts`. */
export const promptCreateSchema = z.strictObject({
  title: promptTitleSchema,
  template: promptTemplateSchema,
  preferred_llm: preferredLlmSchema.default(null),
  visibility: promptVisibilitySchema.default('PRIVATE'),
  /** Admins only. */
  is_recommended: z.boolean().default(false),
});
/** What the app sends; the server reads the parsed `PromptCreateBody`, defaults filled in. */
export type PromptCreate = z.input<typeof promptCreateSchema>;
export type PromptCreateBody = z.infer<typeof promptCreateSchema>;

/** `PATCH /prompts/{id}`: the fields to change, at least one. */
export const promptUpdateSchema = z
  .strictObject({
    title: promptTitleSchema.optional(),
    template: promptTemplateSchema.optional(),
    preferred_llm: preferredLlmSchema.optional(),
    visibility: promptVisibilitySchema.optional(),
    /** Admins only. */
    is_recommended: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Nothing to change');
export type PromptUpdate = z.input<typeof promptUpdateSchema>;

export const PROMPT_LIST_FILTERS = ['all', 'mine', 'org', 'recommended'] as const;
export const promptListFilterSchema = z.enum(PROMPT_LIST_FILTERS);
export type PromptListFilter = z.infer<typeof promptListFilterSchema>;

/** `GET /prompts`: the viewer's and the org's workflows whose title or template holds `query`. */
export const promptsQuerySchema = z.object({
  query: z.string().trim().max(PROMPT_TITLE_MAX_CHARS).optional(),
  filter: promptListFilterSchema.default('all'),
});
export type PromptsQuery = z.input<typeof promptsQuerySchema>;

export const promptIdParamsSchema = z.object({ id: z.uuid() });

export const promptSchema = z.object({
  id: z.string(),
  title: z.string(),
  template: z.string(),
  preferred_llm: z.string().nullable(),
  visibility: promptVisibilitySchema,
  is_recommended: z.boolean(),
  use_count: z.number().int().min(0),
  /** Null once the author's account is gone. */
  author: z.object({ email: z.string(), display_name: z.string().nullable() }).nullable(),
  is_mine: z.boolean(),
  /** The viewer may edit and delete it (the server decides; the app only hides the buttons). */
  can_edit: z.boolean(),
  /** ISO-8601. */
  updated_at: z.string(),
});
export type Prompt = z.infer<typeof promptSchema>;

export const promptResponseSchema = z.object({ prompt: promptSchema });
export type PromptResponse = z.infer<typeof promptResponseSchema>;

/** Recommended first, then the most used, then by title. */
export const promptsResponseSchema = z.object({ prompts: z.array(promptSchema) });
export type PromptsResponse = z.infer<typeof promptsResponseSchema>;

export const promptUsedResponseSchema = z.object({ id: z.string(), use_count: z.number().int().min(0) });
export const promptDeletedResponseSchema = z.object({ id: z.string() });
