// How a question reaches /chat from elsewhere (the homepage, the legacy search page): its text in the address, asked
// once and then cleaned from it, and what the asker chose besides the text in the history entry's state, which a
// reload or a shared address does not repeat.
import { z } from 'zod';
import { appDetailsSchema, SEARCH_SCOPES } from '../../common/api/chat';
import type { ScopeState } from './sources';

/** Address parameters of the question page (spec asking-questions §2): a search text, and the omnibox flag. */
export const QUESTION_PARAM = 'q';
export const OMNIBOX_PARAM = 'omnibox';

export const askChoicesSchema = z.object({
  scope: z.object({
    scope: z.enum(SEARCH_SCOPES),
    apps: z.array(z.string()).readonly().nullable(),
    files: z.boolean(),
    answers: z.boolean(),
    details: z.record(z.string(), appDetailsSchema).readonly(),
  }) satisfies z.ZodType<ScopeState>,
  llm: z.string().nullable(),
  research: z.boolean(),
});
export type AskChoices = z.infer<typeof askChoicesSchema>;

/** The address that asks `query` on /chat. */
export function chatQuestionPath(query: string): string {
  return `/chat?${new URLSearchParams({ [QUESTION_PARAM]: query }).toString()}`;
}

/** The choices a history entry carries; anything else there (another page's state, an old shape) is none. */
export function askChoicesOf(state: unknown): AskChoices | undefined {
  const parsed = askChoicesSchema.safeParse(state);
  return parsed.success ? parsed.data : undefined;
}
