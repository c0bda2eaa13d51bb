import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import type { LlmListResponse } from '../../../common/api/llms';
import {
  promptDeletedResponseSchema,
  promptResponseSchema,
  promptsResponseSchema,
  promptUsedResponseSchema,
  type Prompt,
  type PromptCreate,
  type PromptListFilter,
  type PromptUpdate,
} from '../../../common/api/prompts';
import { api } from '../../api/client';

export const workflowKeys = {
  all: ['prompts'] as const,
  list: (filter: PromptListFilter, query: string) => ['prompts', 'list', filter, query] as const,
  recommended: ['prompts', 'recommended'] as const,
};

/** `GET /prompts`: the viewer's and the org's workflows, filtered and searched. */
export function useWorkflows(filter: PromptListFilter, query: string, enabled = true) {
  return useQuery({
    queryKey: workflowKeys.list(filter, query),
    enabled,
    queryFn: ({ signal }) =>
      api.get('prompts', {
        schema: promptsResponseSchema,
        query: { filter, query: query || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /prompts/recommended`: the homepage's chips. */
export function useRecommendedWorkflows() {
  return useQuery({
    queryKey: workflowKeys.recommended,
    queryFn: ({ signal }) => api.get('prompts/recommended', { schema: promptsResponseSchema, signal }),
  });
}

export const workflowsApi = {
  get: (id: string) =>
    api.get(`prompts/promptsById/${encodeURIComponent(id)}`, { schema: promptResponseSchema }),
  create: (body: PromptCreate) => api.post('prompts', { body, schema: promptResponseSchema }),
  update: (id: string, body: PromptUpdate) =>
    api.patch(`prompts/${encodeURIComponent(id)}`, { body, schema: promptResponseSchema }),
  remove: (id: string) =>
    api.delete(`prompts/${encodeURIComponent(id)}`, { schema: promptDeletedResponseSchema }),
};

export function refreshWorkflows(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: workflowKeys.all });
}

/**
 * Counts a use (`POST /prompts/prompt_used/{id}`), which orders the recommended row. Best effort: a count that does
 * not reach the server must not stop the member from using the workflow, so a failure is dropped.
 */
export function recordWorkflowUse(workflow: Prompt): void {
  api
    .post(`prompts/prompt_used/${encodeURIComponent(workflow.id)}`, { schema: promptUsedResponseSchema })
    .catch(() => undefined);
}

/** The workflow's preferred model when this member may choose it now; otherwise the input keeps its own. */
export function availableModelOf(workflow: Prompt, llms: LlmListResponse | undefined): string | null {
  const option = llms?.llms.find((candidate) => candidate.id === workflow.preferred_llm);
  return option?.enabled && llms?.generative ? option.id : null;
}
