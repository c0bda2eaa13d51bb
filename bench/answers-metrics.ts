/**
 * The scoring rules of `bench:answers` (../shared/eval/workplace-dev/README.md), kept apart from the run so a unit
 * test pins them: the README's normalisation and matching rule, hit@k and MRR@10 over the ranked answer files, the
 * per-kind table, and the leak check's evidence of a private page in what a member was shown.
 */

export type Question = {
  id: string;
  question: string;
  answer_files: string[];
  must_contain: string[];
  kind: string;
  visible_to?: string[];
};

export type Acl = { members: string[]; private: Record<string, string[]>; everything_else: string };

const NUMBER_WORDS = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
// the README's own validator (check.py) tries the longest word first, so "seventeen" never reads as "seven"+"teen"
const NUMBER_WORD = new RegExp(
  `\\b(${[...NUMBER_WORDS].sort((a, b) => b.length - a.length).join('|')})\\b`,
  'g',
);
/** check.py's list: the hyphen, the Unicode dashes, the minus sign and their small and full-width forms. */
const DASH = /[-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]/g;

/** The README's normalisation: lowercase, hyphens and dashes to spaces, one..twenty to digits, whitespace collapsed. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(DASH, ' ')
    .replace(NUMBER_WORD, (word) => String(NUMBER_WORDS.indexOf(word) + 1))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The README's matching rule: after normalising both, a plain substring test. Nothing else is forgiven. */
export function containsFact(text: string, fact: string): boolean {
  return normalise(text).includes(normalise(fact));
}

/**
 * A fact stands in a page's Markdown even when emphasis splits it (`**16** weeks`): check.py forgives `*` when it
 * checks the pages, so a prompt, which is page text, is read the same way. Answers get no such allowance.
 */
export function factInPageText(text: string, fact: string): boolean {
  return containsFact(text, fact) || containsFact(text.replaceAll('*', ''), fact);
}

/** The 1-based rank of the first relevant file among ranked files (each file once, best first), or null. */
export function firstRelevantRank(ranked: readonly string[], relevant: readonly string[]): number | null {
  const index = ranked.findIndex((file) => relevant.includes(file));
  return index < 0 ? null : index + 1;
}

export const hitAt = (rank: number | null, k: number): boolean => rank !== null && rank <= k;

export const reciprocalRankAt = (rank: number | null, k = 10): number =>
  rank !== null && rank <= k ? 1 / rank : 0;

/** One question's outcome in one mode. `factsInPrompt` is null when no prompt was sent (no model). */
export type Outcome = {
  question: Question;
  rank: number | null;
  answerFacts: boolean[];
  factsInPrompt: boolean[] | null;
};

export type Figures = {
  questions: number;
  hit1: number;
  hit5: number;
  mrr10: number;
  /** Every must_contain string in the answer. */
  answer: number;
  /** The README's pass: a top-5 hit and every string in the answer. */
  pass: number;
  /** Questions whose every must_contain string was in the prompt; null without a model. */
  promptQuestions: number | null;
  /** The same, counted by string. */
  promptFacts: number | null;
};

export const KINDS = ['paraphrase', 'lexical', 'multi', 'private'] as const;

const share = (count: number, of: number) => (of === 0 ? 0 : count / of);

export function figuresOf(outcomes: readonly Outcome[]): Figures {
  const n = outcomes.length;
  const answered = (o: Outcome) => o.answerFacts.every(Boolean);
  const prompted = outcomes.filter((o) => o.factsInPrompt !== null);
  const promptFacts = prompted.flatMap((o) => o.factsInPrompt!);
  return {
    questions: n,
    hit1: share(outcomes.filter((o) => hitAt(o.rank, 1)).length, n),
    hit5: share(outcomes.filter((o) => hitAt(o.rank, 5)).length, n),
    mrr10: share(
      outcomes.reduce((sum, o) => sum + reciprocalRankAt(o.rank), 0),
      n,
    ),
    answer: share(outcomes.filter(answered).length, n),
    pass: share(outcomes.filter((o) => hitAt(o.rank, 5) && answered(o)).length, n),
    promptQuestions:
      prompted.length === 0
        ? null
        : share(prompted.filter((o) => o.factsInPrompt!.every(Boolean)).length, prompted.length),
    promptFacts: prompted.length === 0 ? null : share(promptFacts.filter(Boolean).length, promptFacts.length),
  };
}

/** Figures per kind (in the README's order, then any other kind) and overall. */
export function figuresByKind(outcomes: readonly Outcome[]): { kind: string; figures: Figures }[] {
  const kinds = [
    ...KINDS.filter((kind) => outcomes.some((o) => o.question.kind === kind)),
    ...new Set(
      outcomes.map((o) => o.question.kind).filter((kind) => !(KINDS as readonly string[]).includes(kind)),
    ),
  ];
  return [
    ...kinds.map((kind) => ({ kind, figures: figuresOf(outcomes.filter((o) => o.question.kind === kind)) })),
    { kind: 'overall', figures: figuresOf(outcomes) },
  ];
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

export function formatTable(rows: { kind: string; figures: Figures }[]): string {
  const header = ['kind', 'n', 'hit@1', 'hit@5', 'MRR@10', 'facts in prompt', 'answer', 'pass'];
  const lines = rows.map(({ kind, figures: f }) => [
    kind,
    String(f.questions),
    percent(f.hit1),
    percent(f.hit5),
    f.mrr10.toFixed(3),
    f.promptQuestions === null || f.promptFacts === null
      ? 'n/a (no model)'
      : `${percent(f.promptQuestions)} (strings ${percent(f.promptFacts)})`,
    percent(f.answer),
    percent(f.pass),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  return [header, ...lines]
    .map((cells) =>
      cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

export function summaryLine(label: string, overall: Figures): string {
  const prompt = overall.promptQuestions === null ? 'n/a (no model)' : percent(overall.promptQuestions);
  return (
    `${label}: hit@1 ${percent(overall.hit1)}, hit@5 ${percent(overall.hit5)}, MRR@10 ` +
    `${overall.mrr10.toFixed(3)}, facts in prompt ${prompt}, answer ${percent(overall.answer)}, ` +
    `pass ${percent(overall.pass)}`
  );
}

// ---------------------------------------------------------------------------------------------
// The leak test
// ---------------------------------------------------------------------------------------------

/** Word runs this long from a private page, found nowhere the member may read, can only have come from it. */
export const LEAK_SHINGLE_WORDS = 8;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function shingles(text: string, size = LEAK_SHINGLE_WORDS): Set<string> {
  const list = words(text);
  const result = new Set<string>();
  for (let i = 0; i + size <= list.length; i++) result.add(list.slice(i, i + size).join(' '));
  return result;
}

/** What gives a private page away: its address, its title, and its text that no readable page shares. */
export type PrivateTrace = { file: string; url: string; title: string | null; shingles: Set<string> };

export function privateTrace(
  page: { file: string; url: string; title: string; text: string },
  readableTexts: readonly string[],
): PrivateTrace {
  const own = shingles(page.text);
  for (const text of readableTexts) for (const shingle of shingles(text)) own.delete(shingle);
  const readable = readableTexts.map((text) => text.toLowerCase());
  // a title that a readable page also names is no evidence: a public page may link to the private one
  const title = readable.some((text) => text.includes(page.title.toLowerCase())) ? null : page.title;
  return { file: page.file, url: page.url, title, shingles: own };
}

/** Every string of a JSON-like value (a search answer, the socket's messages, a prompt). */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The traces of the private page in what a member was shown (or what was sent to the model for them). */
export function leaksIn(shown: unknown, trace: PrivateTrace): string[] {
  const found: string[] = [];
  const texts = stringsOf(shown);
  if (texts.some((text) => text.includes(trace.url))) found.push(`its address ${trace.url}`);
  if (trace.title && texts.some((text) => text.toLowerCase().includes(trace.title!.toLowerCase())))
    found.push(`its title "${trace.title}"`);
  for (const text of texts) {
    const quoted = [...shingles(text)].find((shingle) => trace.shingles.has(shingle));
    if (quoted) {
      found.push(`its text "${quoted}…"`);
      break;
    }
  }
  return found;
}
