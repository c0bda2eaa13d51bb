/**
 * Deep research (spec asking-questions §4 and §5; DESIGN §6): several retrieve-and-reason hops with the server's
 * progress, then a long report. Gated by the org's deepresearch flag and the deepResearch plan feature, refused for
 * attached files and AI-only mode, and limited to RESEARCH_RATE_LIMIT requests per member per window.
 */
import { RESEARCH_RATE_LIMIT, RESEARCH_RATE_WINDOW_MS } from '../../common/api/chat';
import { PROGRESS_BAR_START } from '../../common/limits';
import { completeModelText } from '../llm/generate';
import type { AnswerModel } from '../llm/registry';
import type { DbOrTx } from '../db/store';
import type { Generation } from './generations';
import type { Passage } from './passages';
import { recentResearchTimes } from './rows';

/** Hops at most, the question's own included. */
const MAX_HOPS = 6;
const PLANNED_QUERIES = 3;
const FOLLOW_UP_QUERIES = 2;
export const RESEARCH_PASSAGES_MAX = 16;
const PER_HOP = 8;

/** Progress: 5 at the start (spec), planning to 10, the hops share 10–85, writing the report sits at 90, the end is 100. */
export const PROGRESS_START = PROGRESS_BAR_START;
const PROGRESS_PLANNED = 10;
const PROGRESS_HOPS_END = 85;
export const PROGRESS_WRITING = 90;
export const PROGRESS_DONE = 100;

export type ResearchQuota = { allowed: boolean; limit: number; resetAt: Date };

/** Whether the member may start another research request now, and when the oldest one in the window expires. */
export async function researchQuota(
  db: DbOrTx,
  orgId: string,
  userId: string,
  now: Date,
): Promise<ResearchQuota> {
  const since = new Date(now.getTime() - RESEARCH_RATE_WINDOW_MS);
  const times = await recentResearchTimes(db, orgId, userId, since, RESEARCH_RATE_LIMIT);
  const allowed = times.length < RESEARCH_RATE_LIMIT;
  const resetAt = times[0] ? new Date(times[0].getTime() + RESEARCH_RATE_WINDOW_MS) : now;
  return { allowed, limit: RESEARCH_RATE_LIMIT, resetAt };
}

export const PLAN_SYSTEM_PROMPT =
  'You plan research in a workplace search engine. Reply with short keyword search queries, one per line, ' +
  'nothing else.';

/** Searches in a reply of one per line: bullets, numbering and quotes stripped, the question and repeats dropped. */
export function parseQueries(reply: string, question: string, max: number): string[] {
  const asked = question.trim().toLowerCase();
  const seen = new Set<string>([asked]);
  const queries: string[] = [];
  for (const raw of reply.split('\n')) {
    const query = raw
      .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
      .replace(/^["'“”]+|["'“”]+$/g, '')
      .trim();
    if (!query || query.length > 200 || /^none\.?$/i.test(query) || seen.has(query.toLowerCase())) continue;
    seen.add(query.toLowerCase());
    queries.push(query);
    if (queries.length >= max) break;
  }
  return queries;
}

async function planQueries(model: AnswerModel, question: string, signal: AbortSignal): Promise<string[]> {
  if (model.kind !== 'generative') return [];
  try {
    const reply = await completeModelText({
      model,
      system: PLAN_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: `Question: ${question}\nList up to ${PLANNED_QUERIES} searches that together cover it.`,
        },
      ],
      signal,
      maxOutputTokens: 150,
    });
    return parseQueries(reply, question, PLANNED_QUERIES);
  } catch {
    return [];
  }
}

async function followUpQueries(
  model: AnswerModel,
  question: string,
  found: readonly Passage[],
  done: readonly string[],
  signal: AbortSignal,
): Promise<string[]> {
  if (model.kind !== 'generative') {
    // Without a model, the best documents' titles are the next searches: they name what the question is about.
    return found
      .slice(0, FOLLOW_UP_QUERIES)
      .map((passage) => passage.title)
      .filter((title) => title && !done.some((query) => query.toLowerCase() === title.toLowerCase()));
  }
  try {
    // Only passages the answer keeps (the first RESEARCH_PASSAGES_MAX, in order of discovery) may reach the model:
    // the answer's builtFrom lists those, and it decides who may read what the model made of them.
    const titles = found
      .slice(0, Math.min(10, RESEARCH_PASSAGES_MAX))
      .map((passage) => `- ${passage.title}`)
      .join('\n');
    const reply = await completeModelText({
      model,
      system: PLAN_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content:
            `Question: ${question}\nSearches done: ${done.join('; ')}\nDocuments found:\n${titles || '(none)'}\n` +
            `List up to ${FOLLOW_UP_QUERIES} more searches for what is still missing, or NONE.`,
        },
      ],
      signal,
      maxOutputTokens: 120,
    });
    return parseQueries(reply, question, FOLLOW_UP_QUERIES).filter(
      (query) => !done.some((doneQuery) => doneQuery.toLowerCase() === query.toLowerCase()),
    );
  } catch {
    return [];
  }
}

/**
 * Runs the hops: the question, the planned searches, then follow-ups for the gaps. Each hop is a MULTI_STEP_THOUGHT
 * (what it looks for) and a HOP_COMPLETED with the progress. Passages keep their order of discovery, so the first
 * hop's best come first.
 */
export async function researchPassages(
  generation: Generation,
  model: AnswerModel,
  question: string,
  gather: (query: string, limit: number) => Promise<Passage[]>,
  onProgress: (progress: number) => void,
): Promise<Passage[]> {
  const { signal } = generation;
  generation.setStage('MULTI_STEP_THOUGHT', {
    progressBar: PROGRESS_START,
    detail: 'Planning the research',
  });
  const queries = [question, ...(await planQueries(model, question, signal))];
  signal.throwIfAborted();
  onProgress(PROGRESS_PLANNED);
  const collected = new Map<string, Passage>();
  const done: string[] = [];
  let followedUp = false;
  for (let hop = 0; hop < queries.length && hop < MAX_HOPS; hop++) {
    const query = queries[hop]!;
    const planned = Math.min(queries.length + (followedUp ? 0 : FOLLOW_UP_QUERIES), MAX_HOPS);
    const before = PROGRESS_PLANNED + Math.round(((PROGRESS_HOPS_END - PROGRESS_PLANNED) * hop) / planned);
    generation.setStage('MULTI_STEP_THOUGHT', { progressBar: before, detail: query });
    const found = await gather(query, PER_HOP);
    signal.throwIfAborted();
    done.push(query);
    for (const passage of found) if (!collected.has(passage.id)) collected.set(passage.id, passage);
    const after =
      PROGRESS_PLANNED + Math.round(((PROGRESS_HOPS_END - PROGRESS_PLANNED) * (hop + 1)) / planned);
    generation.setStage('HOP_COMPLETED', {
      progressBar: after,
      detail: `${found.length} source${found.length === 1 ? '' : 's'} for “${query}”`,
    });
    onProgress(after);
    if (hop === queries.length - 1 && !followedUp) {
      followedUp = true;
      const more = await followUpQueries(model, question, [...collected.values()], done, signal);
      queries.push(...more);
    }
  }
  return [...collected.values()].slice(0, RESEARCH_PASSAGES_MAX);
}
