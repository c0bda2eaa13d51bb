/**
 * The test model of `bench:answers`: what the OpenAI-compatible test server answers when Scout sends it a question
 * with its numbered sources. It reads nothing but that request (never the questions file or the facts a question
 * needs), and answers as a careful model would: the sources' lines that best match the question, restated as
 * plain text (a model writes its own Markdown, not the page's) and each cited with its source number. Word matching
 * is all it understands, so a paraphrase whose answer shares no word with the question is missed here where a real
 * model might still find it: its pass rate is a floor for what the prompt allows.
 */
import type { RecordedRequest } from '../server/llm/testing/openai-server';

/** Lines (a paragraph, a list item, a table row) in the answer: enough for a question of two or three parts. */
export const ANSWER_LINES = 4;
export const NOT_COVERED = 'The sources do not say.';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to too us was we were what when ' +
    'where which while who whom why will with would you your am any some should must may might need get got ' +
    'just still also about after before over under up out off own same such only other more most each very'
  ).split(' '),
);

/** A crude English stem, enough for "approve", "approves", "approved" and "approving" to meet. */
function stem(word: string): string {
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'es', 'ed', 'ly', 's', 'e']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

const terms = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}$%]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w)).map(stem);

type Source = { number: number; title: string; text: string };

/** The numbered sources of Scout's system prompt (server/chat/prompt.ts: `[n] Title (facts)` then the text). */
export function sourcesOf(system: string): Source[] {
  const start = system.indexOf('\nSources:\n');
  if (start < 0) return [];
  const body = system.slice(start);
  const headers = [...body.matchAll(/\n\n\[(\d+)\] ([^\n]*)\n/g)];
  return headers.map((header, i) => ({
    number: Number(header[1]),
    title: header[2]!.slice(0, header[2]!.lastIndexOf(' (')),
    text: body.slice(header.index + header[0].length, headers[i + 1]?.index ?? body.length),
  }));
}

/** Page Markdown as a model would restate it: no list bullets, table pipes, emphasis or link targets. */
function plain(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|(?<![\p{L}\p{N}])[*_]|[*_](?![\p{L}\p{N}])/gu, '')
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/^\s*\|\s*|\s*\|\s*$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A statement of a source: its text, the heading it sits under, and the list it introduces when it ends in ':'. */
type Statement = { text: string; heading: string; list: string[] };

/** Items of a list a statement introduces that are read with it. */
const LIST_ITEMS = 6;

/**
 * The statements of a source, read as a careful model reads a page. Each chunk (chunks are joined by `…`) opens with
 * the page title and heading path, and a heading names a topic without answering anything: both are context for the
 * statements below them, not statements. A line ending in ':' introduces the list that follows, which is its answer.
 */
function statementsOf(source: Source): Statement[] {
  const statements: Statement[] = [];
  for (const chunk of source.text.split('\n…\n')) {
    const prefixEnd = chunk.indexOf('\n\n');
    const hasPrefix = prefixEnd >= 0 && chunk.slice(0, chunk.indexOf('\n')).trim() === source.title.trim();
    let heading = hasPrefix ? chunk.slice(0, prefixEnd).split('\n').slice(1).join(' ') : '';
    const lines = (hasPrefix ? chunk.slice(prefixEnd) : chunk).split('\n');
    lines.forEach((line, i) => {
      if (/^\s*#{1,6}\s/.test(line)) {
        heading = plain(line.replace(/^\s*#+\s*/, ''));
        return;
      }
      const text = plain(line);
      if (!text || /^[-|: ]+$/.test(text)) return;
      const list: string[] = [];
      if (text.endsWith(':')) {
        for (const next of lines.slice(i + 1)) {
          if (list.length >= LIST_ITEMS || /^\s*#{1,6}\s/.test(next)) break;
          const item = plain(next);
          if (!item) {
            if (list.length > 0) break;
            continue;
          }
          if (!/^[-|: ]+$/.test(item)) list.push(item);
        }
      }
      if (terms(text).length > 0) statements.push({ text, heading, list });
    });
  }
  return statements;
}

/** The answer to the question (the request's last user message) from the request's own sources. */
export function answerFromPrompt(request: RecordedRequest): string {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  const question = request.messages.findLast((message) => message.role === 'user')?.content ?? '';
  const candidates = sourcesOf(system).flatMap((source) =>
    statementsOf(source).map((statement) => ({
      ...statement,
      number: source.number,
      terms: terms(statement.text),
      headingTerms: terms(statement.heading),
    })),
  );
  if (candidates.length === 0) return NOT_COVERED;
  // BM25 over the prompt's statements (k1 1.2, b 0.75): the question's words, weighted by how rare they are there;
  // the heading a statement sits under counts for half, as a reader takes a section's topic into each line of it
  const df = new Map<string, number>();
  for (const candidate of candidates)
    for (const term of new Set(candidate.terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const averageLength = candidates.reduce((sum, c) => sum + c.terms.length, 0) / candidates.length;
  const wanted = new Set(terms(question));
  const bm25 = (words: string[]) => {
    let score = 0;
    for (const term of wanted) {
      const tf = words.filter((t) => t === term).length;
      if (tf === 0) continue;
      const n = df.get(term) ?? 0;
      const idf = Math.log(1 + (candidates.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * words.length) / averageLength));
    }
    return score;
  };
  const scored = candidates.map((candidate, order) => {
    const own = bm25(candidate.terms);
    return { ...candidate, order, own, score: own + 0.5 * bm25(candidate.headingTerms) };
  });
  const best = scored
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, ANSWER_LINES);
  if (best.length === 0) return NOT_COVERED;
  return best
    .map((pick) => {
      const statement = pick.list.length > 0 ? `${pick.text} ${pick.list.join('; ')}` : pick.text;
      return `${statement.replace(/[.!?]?$/, '')} [${pick.number}].`;
    })
    .join(' ');
}
