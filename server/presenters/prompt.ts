import type { Prompt } from '../../common/api/prompts';
import type { Viewer } from '../context';
import type { Prompt as PromptRow, User } from '../db/schema';
import { canEditPrompt, isPromptAuthor } from '../policies/prompts';
import { displayNameOf } from './user';

export type PromptAuthor = Pick<User, 'email' | 'displayName' | 'firstName' | 'lastName'> | null;

/** A workflow as `viewer`, who may read it, sees it: with what they may do to it. */
export function presentPrompt(row: PromptRow, author: PromptAuthor, viewer: Viewer): Prompt {
  return {
    id: row.id,
    title: row.title,
    template: row.template,
    preferred_llm: row.preferredLlm,
    visibility: row.visibility,
    is_recommended: row.isRecommended,
    use_count: row.useCount,
    author: author ? { email: author.email, display_name: displayNameOf(author) } : null,
    is_mine: isPromptAuthor(row, viewer),
    can_edit: canEditPrompt(row, viewer),
    updated_at: row.updatedAt.toISOString(),
  };
}
