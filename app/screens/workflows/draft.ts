// 'Use' on /workflows opens /chat with the workflow's template in the question box: the text and model travel in
// the history entry's state, never in the address, so nothing is asked on its own and a shared link carries none.
import { z } from 'zod';

export const workflowDraftSchema = z.object({
  workflowDraft: z.object({ text: z.string(), llm: z.string().nullable() }),
});
export type WorkflowDraft = z.infer<typeof workflowDraftSchema>['workflowDraft'];

export function workflowDraftState(draft: WorkflowDraft): z.infer<typeof workflowDraftSchema> {
  return { workflowDraft: draft };
}

/** The draft a history entry carries; anything else there is none. */
export function workflowDraftOf(state: unknown): WorkflowDraft | undefined {
  const parsed = workflowDraftSchema.safeParse(state);
  return parsed.success ? parsed.data.workflowDraft : undefined;
}
