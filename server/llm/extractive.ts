/**
 * The extractive answerer (DESIGN §6): with no model configured Scout still answers, from the best passages. A short
 * lead sentence, then the top passages quoted with their [n] citations (the same numbering as references), then a
 * plain statement that no AI model is configured.
 */

export const NO_MODEL_NOTICE =
  'No AI model is configured on this Scout server, so this answer quotes the most relevant passages.';
export const NO_MODEL_NOTHING_FOUND =
  'No AI model is configured on this Scout server, so answers quote the most relevant passages, and none matched.';
export const NO_MODEL_AI_ONLY =
  'No AI model is configured on this Scout server, so AI Only mode cannot answer. Switch to Apps or Web to get the most relevant passages instead.';

/** Passages quoted: at least MIN when there are that many, at most MAX, the rest only while close to the best. */
const MIN_QUOTED = 3;
const MAX_QUOTED = 5;
const CLOSE_TO_BEST = 0.3;
const QUOTE_MAX_CHARS = 400;

export type ExtractivePassage = { title: string; snippet: string; text: string; score: number | null };

function excerpt(passage: ExtractivePassage): string {
  const base = (passage.snippet || passage.text).replace(/\s+/g, ' ').trim();
  if (base.length <= QUOTE_MAX_CHARS) return base;
  const cut = base.lastIndexOf(' ', QUOTE_MAX_CHARS);
  return `${base.slice(0, cut > 0 ? cut : QUOTE_MAX_CHARS)}…`;
}

/** How many of the (best-first) passages to quote. */
export function quotedCount(passages: readonly ExtractivePassage[]): number {
  const best = passages[0]?.score ?? 0;
  let count = 0;
  for (const passage of passages.slice(0, MAX_QUOTED)) {
    const close = best <= 0 || passage.score === null || passage.score >= best * CLOSE_TO_BEST;
    if (count >= MIN_QUOTED && !close) break;
    count++;
  }
  return count;
}

/**
 * The answer's text in the pieces it is streamed in. Passage i (0-based) is cited as [i + 1]; `kind` says whether
 * there were sources to look in at all.
 */
export function extractiveAnswer(
  question: string,
  passages: readonly ExtractivePassage[],
  kind: 'sources' | 'ai-only',
): string[] {
  if (kind === 'ai-only') return [NO_MODEL_AI_ONLY];
  const shown = question.length > 120 ? `${question.slice(0, 117)}…` : question;
  if (passages.length === 0) {
    return [
      `I couldn't find anything about “${shown}” in the sources you can read.\n\n`,
      NO_MODEL_NOTHING_FOUND,
    ];
  }
  const count = quotedCount(passages);
  const pieces = [
    count === 1
      ? `Here is the most relevant passage I found for “${shown}”:\n\n`
      : `Here are the ${count} most relevant passages I found for “${shown}”:\n\n`,
  ];
  passages.slice(0, count).forEach((passage, index) => {
    pieces.push(`**${passage.title || 'Untitled'}** [${index + 1}]\n`);
    pieces.push(`> ${excerpt(passage)}\n\n`);
  });
  pieces.push(NO_MODEL_NOTICE);
  return pieces;
}
