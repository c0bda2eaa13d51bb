// Reading and writing workflows for one viewer. Every query is filtered by the viewer's org and by what they may
// read (server/policies/prompts.ts), in SQL, so a list never holds a row the viewer may not see.
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  PROMPTS_LISTED,
  PROMPTS_RECOMMENDED,
  promptMessages,
  type Prompt,
  type PromptCreateBody,
  type PromptListFilter,
  type PromptUpdate,
} from '../../common/api/prompts';
import type { Viewer } from '../context';
import { containing } from '../db/like';
import { prompts, users } from '../db/schema';
import { notFound } from '../errors';
import type { Db } from '../db/store';
import {
  recommendationAfter,
  requirePromptEdit,
  requirePromptView,
  requireVisibilityChange,
} from '../policies/prompts';
import { presentPrompt } from '../presenters/prompt';

/** The workflows `viewer` may read: their own, and the org's shared ones. */
function readableBy(viewer: Viewer): SQL {
  return and(
    eq(prompts.orgId, viewer.orgId),
    or(eq(prompts.visibility, 'ORG'), eq(prompts.authorId, viewer.userId)),
  )!;
}

function filterCondition(viewer: Viewer, filter: PromptListFilter): SQL | undefined {
  if (filter === 'mine') return eq(prompts.authorId, viewer.userId);
  if (filter === 'org') return eq(prompts.visibility, 'ORG');
  if (filter === 'recommended') return and(eq(prompts.visibility, 'ORG'), eq(prompts.isRecommended, true));
  return undefined;
}

async function selectPrompts(db: Db, viewer: Viewer, where: SQL, limit: number): Promise<Prompt[]> {
  const rows = await db
    .select({ prompt: prompts, author: users })
    .from(prompts)
    .leftJoin(users, eq(users.id, prompts.authorId))
    .where(and(readableBy(viewer), where))
    .orderBy(desc(prompts.isRecommended), desc(prompts.useCount), asc(prompts.title), asc(prompts.id))
    .limit(limit);
  return rows.map((row) => presentPrompt(row.prompt, row.author, viewer));
}

export function listPrompts(
  db: Db,
  viewer: Viewer,
  query: { query?: string; filter: PromptListFilter },
): Promise<Prompt[]> {
  const conditions: SQL[] = [];
  const byFilter = filterCondition(viewer, query.filter);
  if (byFilter) conditions.push(byFilter);
  if (query.query) {
    const pattern = containing(query.query);
    conditions.push(or(ilike(prompts.title, pattern), ilike(prompts.template, pattern))!);
  }
  return selectPrompts(db, viewer, and(...conditions) ?? sql`true`, PROMPTS_LISTED);
}

/** The homepage's chips: the org's recommended workflows, most used first. */
export function recommendedPrompts(db: Db, viewer: Viewer): Promise<Prompt[]> {
  return selectPrompts(db, viewer, filterCondition(viewer, 'recommended')!, PROMPTS_RECOMMENDED);
}

async function loadRow(db: Db, viewer: Viewer, id: string) {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, id), eq(prompts.orgId, viewer.orgId)))
    .limit(1);
  return row;
}

/** One workflow the viewer may read, or 404. */
export async function getPrompt(db: Db, viewer: Viewer, id: string): Promise<Prompt> {
  const [row] = await db
    .select({ prompt: prompts, author: users })
    .from(prompts)
    .leftJoin(users, eq(users.id, prompts.authorId))
    .where(and(eq(prompts.id, id), eq(prompts.orgId, viewer.orgId)))
    .limit(1);
  requirePromptView(row?.prompt, viewer);
  return presentPrompt(row!.prompt, row!.author, viewer);
}

export async function createPrompt(db: Db, viewer: Viewer, body: PromptCreateBody): Promise<Prompt> {
  const isRecommended = recommendationAfter(
    viewer,
    { visibility: body.visibility, isRecommended: false },
    { isRecommended: body.is_recommended },
  );
  const [row] = await db
    .insert(prompts)
    .values({
      orgId: viewer.orgId,
      authorId: viewer.userId,
      title: body.title,
      template: body.template,
      preferredLlm: body.preferred_llm,
      visibility: body.visibility,
      isRecommended,
    })
    .returning({ id: prompts.id });
  return getPrompt(db, viewer, row!.id);
}

export async function updatePrompt(db: Db, viewer: Viewer, id: string, body: PromptUpdate): Promise<Prompt> {
  const row = await loadRow(db, viewer, id);
  requirePromptEdit(row, viewer);
  requireVisibilityChange(row, viewer, body.visibility);
  const isRecommended = recommendationAfter(viewer, row!, {
    visibility: body.visibility,
    isRecommended: body.is_recommended,
  });
  await db
    .update(prompts)
    .set({
      title: body.title,
      template: body.template,
      preferredLlm: body.preferred_llm,
      visibility: body.visibility,
      isRecommended,
    })
    .where(and(eq(prompts.id, id), eq(prompts.orgId, viewer.orgId)));
  return getPrompt(db, viewer, id);
}

export async function deletePrompt(db: Db, viewer: Viewer, id: string): Promise<void> {
  requirePromptEdit(await loadRow(db, viewer, id), viewer);
  await db.delete(prompts).where(and(eq(prompts.id, id), eq(prompts.orgId, viewer.orgId)));
}

/** Counts one use of a workflow the viewer may read; answers the new count. */
export async function recordPromptUse(db: Db, viewer: Viewer, id: string): Promise<number> {
  const [row] = await db
    .update(prompts)
    .set({ useCount: sql`${prompts.useCount} + 1`, updatedAt: sql`${prompts.updatedAt}` })
    .where(and(eq(prompts.id, id), readableBy(viewer)))
    .returning({ useCount: prompts.useCount });
  if (!row) throw notFound(promptMessages.NOT_FOUND);
  return row.useCount;
}
