import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../server/chat/prompt';
import { promptInput } from '../server/chat/testing/prompt-input';
import type { Passage } from '../server/chat/passages';
import type { RecordedRequest } from '../server/llm/testing/openai-server';
import {
  containsFact,
  factInPageText,
  figuresByKind,
  figuresOf,
  firstRelevantRank,
  hitAt,
  leaksIn,
  normalise,
  privateTrace,
  reciprocalRankAt,
  type Outcome,
  type Question,
} from './answers-metrics';
import { answerFromPrompt, NOT_COVERED, sourcesOf } from './answers-model';

const CHECK_PY = path.resolve(import.meta.dirname, '../../shared/eval/workplace-dev/check.py');

describe("the README's matching rule", () => {
  it('forgives case, dashes, number words one..twenty and runs of whitespace, and nothing else', () => {
    expect(containsFact('You may take up to Sixteen weeks of leave', '16 weeks')).toBe(true);
    expect(containsFact('options vest after a 1-year cliff', '1 year cliff')).toBe(true);
    expect(containsFact('a 4\u2013week break', '4 week')).toBe(true);
    expect(containsFact('within seven\n\n  calendar days', '7 calendar days')).toBe(true);
    expect(containsFact('seventeen days', '17 days')).toBe(true);
    expect(normalise('seventeen days')).toBe('17 days');
    expect(containsFact('twenty-one days', '21 days')).toBe(false);
    expect(containsFact('a budget of $2000', '2,000')).toBe(false);
    expect(containsFact('**16** weeks', '16 weeks')).toBe(false);
    expect(factInPageText('**16** weeks', '16 weeks')).toBe(true);
    expect(normalise('  The  Department-Head ')).toBe('the department head');
  });

  it.skipIf(!existsSync(CHECK_PY))('normalises as the set’s own check.py does', () => {
    const samples = [
      'Up to SIXTEEN weeks\u2014paid',
      'a 1-year cliff, then monthly',
      'seventeen, seven, eleventh, twenty\u2212one',
      'tabs\tand\u00a0spaces\n\nand lines',
      'fifteen-minute twelve o’clock',
    ];
    const script =
      'import json, sys; sys.path.insert(0, sys.argv[1]); from check import normalise; ' +
      'print(json.dumps([normalise(s) for s in json.loads(sys.stdin.read())]))';
    const python = execFileSync('python3', ['-c', script, path.dirname(CHECK_PY)], {
      input: JSON.stringify(samples),
      encoding: 'utf8',
    });
    expect(samples.map(normalise)).toEqual(JSON.parse(python));
  });
});

const question = (id: string, kind: string, answerFiles: string[], mustContain: string[]): Question => ({
  id,
  question: `question ${id}?`,
  answer_files: answerFiles,
  must_contain: mustContain,
  kind,
});

describe('the metrics', () => {
  it('ranks the first answer page among the hits, and scores hit@k and MRR@10 from it', () => {
    expect(firstRelevantRank(['a.md', 'b.md', 'c.md'], ['c.md', 'x.md'])).toBe(3);
    expect(firstRelevantRank(['a.md', 'b.md'], ['x.md'])).toBeNull();
    expect([hitAt(1, 1), hitAt(2, 1), hitAt(5, 5), hitAt(6, 5), hitAt(null, 5)]).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
    expect([reciprocalRankAt(1), reciprocalRankAt(4), reciprocalRankAt(10), reciprocalRankAt(11)]).toEqual([
      1, 0.25, 0.1, 0,
    ]);
    expect(reciprocalRankAt(null)).toBe(0);
  });

  it('adds up hand-made outcomes per kind and overall', () => {
    const outcomes: Outcome[] = [
      // found first, answered
      {
        question: question('q1', 'lexical', ['a.md'], ['x']),
        rank: 1,
        answerFacts: [true],
        factsInPrompt: [true],
      },
      // found 4th, one fact of two in the answer, both in the prompt
      {
        question: question('q2', 'lexical', ['a.md'], ['x', 'y']),
        rank: 4,
        answerFacts: [true, false],
        factsInPrompt: [true, true],
      },
      // found 7th (no top-5 hit), answered anyway: not a pass
      {
        question: question('q3', 'paraphrase', ['b.md'], ['z']),
        rank: 7,
        answerFacts: [true],
        factsInPrompt: [false],
      },
      // not found
      {
        question: question('q4', 'paraphrase', ['b.md'], ['z']),
        rank: null,
        answerFacts: [false],
        factsInPrompt: [false],
      },
    ];
    const overall = figuresOf(outcomes);
    expect(overall).toEqual({
      questions: 4,
      hit1: 0.25,
      hit5: 0.5,
      mrr10: (1 + 1 / 4 + 1 / 7) / 4,
      answer: 0.5,
      pass: 0.25,
      promptQuestions: 0.5,
      promptFacts: 3 / 5,
    });
    const byKind = figuresByKind(outcomes);
    expect(byKind.map((row) => row.kind)).toEqual(['paraphrase', 'lexical', 'overall']);
    expect(byKind[0]!.figures).toMatchObject({ questions: 2, hit5: 0, answer: 0.5, pass: 0 });
    expect(byKind[1]!.figures).toMatchObject({ questions: 2, hit1: 0.5, hit5: 1, mrr10: 0.625, pass: 0.5 });

    const extractive = figuresOf(outcomes.map((o) => ({ ...o, factsInPrompt: null })));
    expect([extractive.promptQuestions, extractive.promptFacts]).toEqual([null, null]);
  });
});

describe('the leak check', () => {
  const secret = {
    file: 'pip.md',
    title: 'Addressing underperformance',
    url: 'https://handbook.acme.test/pip',
    text:
      '# Addressing underperformance\n\nA performance improvement plan usually runs for four weeks before the ' +
      'manager decides the next steps with the People team.\n\nEvery teammate deserves clear and kind feedback ' +
      'from their manager at all times.',
  };
  const readable = [
    'Every teammate deserves clear and kind feedback from their manager at all times, says the handbook.',
    'See Addressing underperformance for managers.',
  ];
  const trace = privateTrace(secret, readable);

  it('finds a planted quote, address or title of the private page anywhere in what was shown', () => {
    const answer = {
      type: 'ANSWER_COMPLETE',
      messageText:
        'A **performance improvement plan** usually runs for four weeks before the manager decides [1].',
      references: [],
    };
    expect(leaksIn([answer], trace)).toEqual([
      'its text "a performance improvement plan usually runs for four…"',
    ]);
    const hit = { hits: [{ name: 'Leave', webview_link: 'https://handbook.acme.test/pip', content: '' }] };
    expect(leaksIn(hit, trace)).toEqual(['its address https://handbook.acme.test/pip']);
  });

  it('does not count what the member may read anyway', () => {
    const shared = { messageText: 'Every teammate deserves clear and kind feedback from their manager [1].' };
    expect(leaksIn(shared, trace)).toEqual([]);
    // a readable page names the private one, so its title is no evidence
    expect(leaksIn({ snippet: 'see Addressing underperformance' }, trace)).toEqual([]);
    const unnamed = privateTrace(secret, readable.slice(0, 1));
    expect(leaksIn({ snippet: 'see Addressing underperformance' }, unnamed)).toEqual([
      'its title "Addressing underperformance"',
    ]);
  });
});

const passage = (title: string, text: string): Passage => ({
  id: title,
  title,
  url: `https://handbook.acme.test/${title}`,
  source: 'custom-api',
  snippet: text.slice(0, 100),
  text,
  authorEmail: null,
  authorName: null,
  modifiedTime: null,
  objectType: 'Articles',
  score: 1,
});

function requestFor(questionText: string, passages: Passage[]): RecordedRequest {
  const input = promptInput({ question: questionText, passages });
  return {
    model: 'test',
    stream: true,
    messages: [
      { role: 'system', content: buildSystemPrompt(input) },
      { role: 'user', content: questionText },
    ],
    body: {},
    authorization: undefined,
    aborted: false,
  };
}

describe('the test model', () => {
  const travel = passage(
    'Travel',
    // a chunk as the index holds it: the page title and heading path first
    'Travel\nTravel > Lodging\n\n## Lodging\n\nBook a hotel close to the venue.\n\n' +
      '- The **nightly hotel** limit is $300 in most cities.\n- Meals are covered up to $80 a day.',
  );
  const leave = passage('Leave', '# Parental leave\n\nParents get 16 weeks of paid leave.');

  it("reads Scout's numbered sources from the prompt Scout builds", () => {
    const request = requestFor('anything', [leave, travel]);
    const sources = sourcesOf(request.messages[0]!.content);
    expect(sources.map((source) => [source.number, source.title])).toEqual([
      [1, 'Leave'],
      [2, 'Travel'],
    ]);
    expect(sources[1]!.text).toContain('Meals are covered up to $80 a day.');
  });

  it('answers with the best matching sentences in plain text, each cited with its source', () => {
    const answer = answerFromPrompt(requestFor('What is the hotel limit per night?', [leave, travel]));
    expect(answer.startsWith('The nightly hotel limit is $300 in most cities [2].')).toBe(true);
    expect(answer).not.toContain('16 weeks');
    // the chunk's title and heading path are context, not statements
    expect(answerFromPrompt(requestFor('Where is travel lodging?', [travel]))).not.toContain(
      'Travel > Lodging',
    );
    const perks = passage('Perks', 'Monthly amounts:\n\n- Internet: $50\n- Phone: $75\n\nAsk Finance.');
    expect(answerFromPrompt(requestFor('What are the monthly amounts?', [perks]))).toBe(
      'Monthly amounts: Internet: $50; Phone: $75 [1].',
    );
    expect(answerFromPrompt(requestFor('Is there a gym?', [leave]))).toBe(NOT_COVERED);
    expect(answerFromPrompt(requestFor('What is the hotel limit?', []))).toBe(NOT_COVERED);
  });
});
