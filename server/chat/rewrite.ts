/**
 * Multi-query (issue 13): with a model, the question is rewritten once into a few short keyword searches, which
 * retrieval fuses with the question's own ranking (retrieval.ts). A question's words are often not the page's
 * ("can I work from another country?" against "Remote work abroad"); a model knows the words a page would use, and
 * for a follow-up it knows what "and for fathers?" is about.
 *
 * What the model is shown is what the asker wrote and the earlier turns of the conversation as the asker may read
 * them (loadHistory withholds answers built from documents they cannot read): never a document. The searches it
 * proposes run as the asker, with the ACL inside the index query, so a rewrite finds nothing the question could not.
 *
 * Bounded: the call runs while the question's own searches do, and a reply that is late, fails or says nothing in
 * the expected format leaves the question's own results alone. A question that is already a few keywords is
 * searched as it is.
 */
import { completeModelText } from '../llm/generate';
import type { AnswerModel } from '../llm/registry';
import type { HistoryTurn } from './prompt';
import { parseQueries } from './research';

/** Searches the model may propose. */
export const REWRITE_QUERIES = 3;
/** A proposed search longer than this is a sentence, not keywords. */
const QUERY_MAX_WORDS = 12;
/** Earlier turns the model reads for a follow-up, and how much of each: enough to name what they are about. */
const HISTORY_TURNS = 4;
const HISTORY_TURN_MAX_CHARS = 500;
/** Questions of at most this many words, without a question mark or a question word, are keywords already. */
const KEYWORD_QUERY_MAX_WORDS = 3;
const QUESTION_WORDS = new Set(
  'how what when where which who whom whose why can could do does did is are was were should shall may might will would'.split(
    ' ',
  ),
);

export const REWRITE_SYSTEM_PROMPT = [
  'You turn a question asked of a workplace search engine into keyword searches for the pages that answer it.',
  `Reply with 1 to ${REWRITE_QUERIES} lines in exactly this format and nothing else:`,
  'QUERY: <a few keywords, in the words a company page on the subject would use>',
  'Use other words than the question where a page would: synonyms, the formal name of a policy or process.',
  'For a follow-up, make each search stand alone: name what the conversation is about.',
].join('\n');

/** Whether the question is already a short keyword search, which a rewrite would only delay. */
export function isKeywordQuery(question: string): boolean {
  const words = question.trim().split(/\s+/).filter(Boolean);
  return (
    words.length <= KEYWORD_QUERY_MAX_WORDS &&
    !question.includes('?') &&
    !QUESTION_WORDS.has(words[0]?.toLowerCase() ?? '')
  );
}

/**
 * The searches in the model's reply: only `QUERY:` lines count, whatever surrounds them (code fences, bullets,
 * numbering, bold, a preamble), so prose, JSON or an answer to the question yields none. Keywords only: a line
 * that is a sentence, the question itself or a repeat is dropped.
 */
export function parseRewrite(reply: string, question: string): string[] {
  const proposed = reply.split('\n').flatMap((line) => {
    const match = /^[\s>*_`#\-•\d.)]*query\s*\d*[\s*_]*[:：][\s*_]*(.*)$/i.exec(line);
    const query = (match?.[1] ?? '').replace(/[*_`]+$/, '').trim();
    return query && query.split(/\s+/).length <= QUERY_MAX_WORDS ? [query] : [];
  });
  return parseQueries(proposed.join('\n'), question, REWRITE_QUERIES);
}

function conversationOf(history: readonly HistoryTurn[]): string {
  return history
    .slice(-HISTORY_TURNS)
    .map((turn) => {
      const text = turn.text.replace(/\s+/g, ' ').trim();
      const cut = text.length > HISTORY_TURN_MAX_CHARS ? `${text.slice(0, HISTORY_TURN_MAX_CHARS)}…` : text;
      return `${turn.sender === 'USER' ? 'Asked' : 'Answered'}: ${cut}`;
    })
    .join('\n');
}

/**
 * The model's searches for the question, or none: without a model, for a keyword question that opens a
 * conversation, or when the model fails, says nothing usable or has not answered within `timeoutMs`. Never throws.
 */
export async function rewriteQuestion(
  model: AnswerModel,
  question: string,
  history: readonly HistoryTurn[],
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<string[]> {
  if (model.kind !== 'generative' || question.trim() === '') return [];
  if (history.length === 0 && isKeywordQuery(question)) return [];
  const earlier = conversationOf(history);
  try {
    const reply = await completeModelText({
      model,
      system: REWRITE_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: `${earlier ? `Earlier in the conversation:\n${earlier}\n\n` : ''}Question: ${question}`,
        },
      ],
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
      maxOutputTokens: 100,
    });
    return parseRewrite(reply, question);
  } catch {
    return [];
  }
}
