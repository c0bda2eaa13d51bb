/**
 * Related searches and topic titles. With a model: one cheap non-streaming call, made while the answer streams, that
 * returns both from the question alone. The topic's title is shown to everyone who may open the topic, and its
 * readers need not read what the asker could: a title written from the documents found would carry their titles to
 * them. Without a model, or when that call fails or says nothing usable: related searches from the top documents'
 * titles (withheld, like the answer, from a reader who may not read those documents) and a title from the question.
 */
import { RELATED_SEARCHES_MAX } from '../../common/limits';
import { completeModelText } from '../llm/generate';
import type { ResolvedModel } from '../llm/registry';
import type { Passage } from './passages';

export const TOPIC_TITLE_MAX_CHARS = 60;
const RELATED_MAX_CHARS = 100;

export type Suggestions = { title: string | null; related: string[] };

export const SUGGESTIONS_SYSTEM_PROMPT = [
  'You help a workplace search assistant. Given a question a colleague asked, reply in exactly this format and',
  'nothing else:',
  'TITLE: <a short title for the conversation, at most 6 words>',
  'RELATED:',
  `- <a follow-up search a colleague might run next> (up to ${RELATED_SEARCHES_MAX} lines)`,
].join('\n');

function clean(line: string): string {
  return line
    .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
    .replace(/^["'“”]+|["'“”]+$/g, '')
    .trim();
}

/** Reads the model's reply; lenient about bullets, numbering and quotes. */
export function parseSuggestions(reply: string): Suggestions {
  let title: string | null = null;
  const related: string[] = [];
  let inRelated = false;
  for (const raw of reply.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const titleMatch = /^title\s*:\s*(.+)$/i.exec(line);
    if (titleMatch) {
      title = clean(titleMatch[1]!).slice(0, TOPIC_TITLE_MAX_CHARS) || null;
      continue;
    }
    if (/^related(?:\s+searches)?\s*:?\s*$/i.test(line)) {
      inRelated = true;
      continue;
    }
    if (inRelated) {
      const search = clean(line);
      if (search && search.length <= RELATED_MAX_CHARS) related.push(search);
    }
  }
  return { title, related: dedupe(related).slice(0, RELATED_SEARCHES_MAX) };
}

function dedupe(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A title from the first question: its first words, cut on a word boundary. */
export function titleFromQuestion(question: string): string {
  const text = question.replace(/\s+/g, ' ').trim();
  if (text.length <= TOPIC_TITLE_MAX_CHARS) return capitalise(text);
  const cut = text.lastIndexOf(' ', TOPIC_TITLE_MAX_CHARS - 1);
  return `${capitalise(text.slice(0, cut > 20 ? cut : TOPIC_TITLE_MAX_CHARS - 1))}…`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Extractive related searches: the top documents' titles that are not the question itself. */
export function relatedFromPassages(question: string, passages: readonly Passage[]): string[] {
  const asked = question.trim().toLowerCase();
  const titles = passages
    .map((passage) => passage.title.replace(/\s+/g, ' ').trim())
    .filter((title) => title && title.length <= RELATED_MAX_CHARS && title.toLowerCase() !== asked);
  return dedupe(titles).slice(0, RELATED_SEARCHES_MAX);
}

export async function suggestWithModel(
  model: ResolvedModel,
  question: string,
  signal: AbortSignal,
): Promise<Suggestions> {
  const reply = await completeModelText({
    model,
    system: SUGGESTIONS_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: `Question: ${question}` }],
    signal,
    maxOutputTokens: 200,
  });
  return parseSuggestions(reply);
}

/** Fills what the model's suggestions lack from the extractive fallbacks. */
export function completeSuggestions(
  suggestions: Suggestions | null,
  question: string,
  passages: readonly Passage[],
): { title: string; related: string[] } {
  return {
    title: suggestions?.title || titleFromQuestion(question),
    related: suggestions?.related.length ? suggestions.related : relatedFromPassages(question, passages),
  };
}
