// Who may do what to a workflow (prompt). The spec shows only the reading calls; these rules are ours:
// - A workflow is PRIVATE (its author's alone, like a private topic) or ORG (shared with the whole workspace). Any
//   member may share their own, as they may share a topic with the workspace; nobody else, admins included, ever
//   sees a private one.
// - Admins curate the homepage: only they mark an ORG workflow recommended (the row of chips every member sees), and
//   they may edit or delete any ORG workflow, so a shared one whose author has left can still be kept tidy.
// - Its author edits and deletes it, and alone decides who sees it: making it PRIVATE again withdraws it from the
//   recommended row too.
// A viewer who may not read a workflow learns nothing of it: every refusal to them is a 404.
import { promptMessages, type PromptVisibility } from '../../common/api/prompts';
import type { Viewer } from '../context';
import type { Prompt } from '../db/schema';
import { badRequest, forbidden, notFound } from '../errors';

export type PromptFacts = Pick<Prompt, 'orgId' | 'authorId' | 'visibility'>;

export function isPromptAuthor(prompt: PromptFacts, viewer: Viewer): boolean {
  return prompt.orgId === viewer.orgId && prompt.authorId !== null && prompt.authorId === viewer.userId;
}

export function canViewPrompt(prompt: PromptFacts, viewer: Viewer): boolean {
  return prompt.orgId === viewer.orgId && (prompt.visibility === 'ORG' || isPromptAuthor(prompt, viewer));
}

export function canEditPrompt(prompt: PromptFacts, viewer: Viewer): boolean {
  return (
    isPromptAuthor(prompt, viewer) ||
    (viewer.admin && canViewPrompt(prompt, viewer) && prompt.visibility === 'ORG')
  );
}

export function requirePromptView(
  prompt: PromptFacts | undefined,
  viewer: Viewer,
): asserts prompt is PromptFacts {
  if (!prompt || !canViewPrompt(prompt, viewer)) throw notFound(promptMessages.NOT_FOUND);
}

export function requirePromptEdit(
  prompt: PromptFacts | undefined,
  viewer: Viewer,
): asserts prompt is PromptFacts {
  requirePromptView(prompt, viewer);
  if (!canEditPrompt(prompt, viewer)) throw forbidden(promptMessages.EDIT_NOT_ALLOWED);
}

/** Only the author changes who sees a workflow: an admin hiding a member's shared one would lose it themselves. */
export function requireVisibilityChange(
  prompt: PromptFacts,
  viewer: Viewer,
  visibility: PromptVisibility | undefined,
): void {
  if (visibility !== undefined && visibility !== prompt.visibility && !isPromptAuthor(prompt, viewer))
    throw forbidden(promptMessages.VISIBILITY_AUTHOR_ONLY);
}

/**
 * The recommendation a write would leave: only admins change it, and only an ORG workflow may carry it. Returns the
 * value to store, or throws 403 (a member changing it) or 400 (recommending a private one).
 */
export function recommendationAfter(
  viewer: Viewer,
  current: { visibility: PromptVisibility; isRecommended: boolean },
  change: { visibility?: PromptVisibility; isRecommended?: boolean },
): boolean {
  const visibility = change.visibility ?? current.visibility;
  if (change.isRecommended !== undefined && change.isRecommended !== current.isRecommended && !viewer.admin)
    throw forbidden(promptMessages.RECOMMEND_ADMIN_ONLY, 'ADMIN_REQUIRED');
  const wanted = change.isRecommended ?? (visibility === 'PRIVATE' ? false : current.isRecommended);
  if (wanted && visibility !== 'ORG') throw badRequest(promptMessages.RECOMMEND_NEEDS_ORG);
  return wanted;
}
