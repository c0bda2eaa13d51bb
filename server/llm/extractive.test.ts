import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/store';
import { lexemesOfWords } from '../search/lexemes';
import { extractiveAnswer, NO_MODEL_NOTICE, wordsToStem, type ExtractivePassage } from './extractive';

// the lexicon comes from PostgreSQL's stemmer, as in the answer path: a real (embedded) store
let store: Store;
beforeAll(async () => {
  store = await openStore({ memory: true });
});
afterAll(async () => {
  await store?.close();
});

/** A passage as retrieval builds it: each chunk is the chunker's title and section path, a blank line, the slice. */
function passage(id: string, title: string, chunks: string[]): ExtractivePassage {
  return { id, title, snippet: '', text: chunks.join('\n…\n') };
}

const answerOf = async (question: string, passages: ExtractivePassage[]) =>
  extractiveAnswer(
    question,
    passages,
    'sources',
    await lexemesOfWords(store.db, wordsToStem(question, passages)),
  ).join('');

/**
 * The quoted lines of an answer that quote the source (not a bold heading line or a table's header), each without
 * its quote mark, list bullet or bold lead-in, with the citation marker it ends in.
 */
function quotedSentences(answer: string): { text: string; cite: number | null }[] {
  return answer
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('> ') && !/^> \*\*[^*]+\*\*$/.test(line) && !/^> \| (?:---|Expense)/.test(line),
    )
    .flatMap((line) => {
      const body = line
        .slice(2)
        .replace(/^- /, '')
        .replace(/^\*\*[^*]+\*\*:? /, '');
      const cited = [...body.matchAll(/(.*?) \[(\d+)\](?: \|)?(?: |$)/g)];
      const rest = body.slice(cited.reduce((end, match) => end + match[0].length, 0));
      return [
        ...cited.map((match) => ({ text: match[1]!, cite: Number(match[2]) })),
        ...(rest ? [{ text: rest, cite: null }] : []),
      ];
    });
}

describe('extractiveAnswer', () => {
  it('quotes whole sentences: never a chunk that starts or ends mid-sentence', async () => {
    const answer = await answerOf('How long is paid parental leave?', [
      passage('leave', 'Leave policy', [
        'Leave policy\nParental leave\n\nyour manager if needed. Parental leave lasts 16 weeks at full pay. Tell the People team two months ahead.',
        'Leave policy\nSick leave\n\nSick leave is paid for up to 4 weeks a year. Longer sick leave needs a note from a doc',
        'Leave policy\nUnpaid leave\n\nUnpaid leave of up to a year can be agreed with your manager.',
      ]),
    ]);
    expect(answer).toContain('Parental leave lasts 16 weeks at full pay.');
    expect(answer).not.toContain('your manager if needed');
    expect(answer).not.toContain('note from a doc');
    const quoted = quotedSentences(answer);
    expect(quoted.length).toBeGreaterThan(0);
    for (const { text } of quoted) {
      expect(text).toMatch(/^[\p{Lu}\p{N}$“"(]/u);
      expect(text).toMatch(/[.!?:;)"”]$/);
    }
  });

  it('leaves out the last sentence of a long passage when it was cut mid-word', async () => {
    const filler = Array.from({ length: 45 }, (_, i) => `Rule ${i + 1} of the office applies to visitors.`);
    const answer = await answerOf('How many visitors may a teammate bring?', [
      passage('office', 'Office rules', [
        `Office rules\n\n${filler.join(' ')} A teammate may bring two visitors a day. Visitors sign in at the fro`,
      ]),
    ]);
    expect(answer).toContain('A teammate may bring two visitors a day.');
    expect(answer).not.toContain('at the fro');
  });

  it('turns headings inside a passage into bold lead-ins, never heading markup', async () => {
    const answer = await answerOf('How many weeks of leave do parents get?', [
      passage('benefits', 'Benefits', [
        'Benefits\n\n# Benefits\n\n## Parental leave\n\nTeammates get **16 weeks** of paid parental leave.\n\nSick leave\n----------\n\nSick leave is paid for up to 4 weeks.\n\n**Adoption leave**\nAdoptive parents get the same 16 weeks of leave.',
      ]),
    ]);
    expect(answer).not.toMatch(/#/);
    expect(answer).not.toContain('---');
    expect(answer).toContain('> **Parental leave:** Teammates get 16 weeks of paid parental leave. [1]');
    expect(answer).toContain('> **Adoption leave:** Adoptive parents get the same 16 weeks of leave. [1]');
  });

  it('gives one document one slot, cited as its first passage, whatever number of its passages were retrieved', async () => {
    const answer = await answerOf('What should I know about parental leave?', [
      passage('leave', 'Leave policy', ['Leave policy\nParental leave\n\nParental leave lasts 16 weeks.']),
      passage('faq', 'People FAQ', ['People FAQ\n\nParental leave questions go to the People team.']),
      passage('leave', 'Leave policy', [
        'Leave policy\nParental leave\n\nParental leave can be split in two.',
      ]),
    ]);
    expect(answer.split('**Leave policy**').length).toBe(2);
    expect(
      answer.startsWith(
        'Here are the 2 most relevant passages I found for “What should I know about parental leave?”',
      ),
    ).toBe(true);
    expect(answer).toContain('Parental leave can be split in two. [1]');
    expect(answer).not.toContain('[3]');
    expect(answer.trim().endsWith(NO_MODEL_NOTICE)).toBe(true);
  });

  it('chooses the sentence with the asked number over sentences that merely repeat the question', async () => {
    const answer = await answerOf('How many weeks of parental leave do new parents get?', [
      passage('leave', 'Leave policy', [
        [
          'Leave policy',
          '',
          'New parents get parental leave, counted in weeks.',
          'Parental leave gives new parents weeks at home.',
          'Every new parent can get parental leave for some weeks.',
          'Weeks of parental leave help new parents settle in.',
          'Birth and adoptive parents are paid in full for 16 weeks.',
        ].join('\n\n'),
      ]),
    ]);
    expect(answer).toContain('> Birth and adoptive parents are paid in full for 16 weeks. [1]');
    // three sentences at most from one source: the number's took the place of a repetition
    expect(quotedSentences(answer)).toHaveLength(3);
  });

  it('takes a figure with its unit for the asked amount, not a time of day that sits beside the question’s words', async () => {
    const answer = await answerOf('How much can I claim for breakfast, lunch and dinner each day?', [
      passage('trips', 'Trips', [
        [
          'Trips',
          '',
          '- 9am–10am: Breakfast with the team',
          '- 12pm–1pm: Team lunch',
          '- 6pm–8pm: Team dinner',
          '',
          'Teammates may spend up to $80 per day on all three meals.',
        ].join('\n'),
      ]),
    ]);
    expect(quotedSentences(answer)[0]?.text).toBe(
      'Teammates may spend up to $80 per day on all three meals.',
    );
  });

  it('cites every quoted sentence with its own source', async () => {
    const answer = await answerOf('What is the hotel limit per night when travelling?', [
      passage('travel', 'Travel policy', [
        'Travel policy\nHotels\n\nHotels are booked through the travel tool. The hotel limit is $300 per night.\n\n- Parking at the hotel counts toward the nightly limit.',
      ]),
      passage('other', 'Expense report guide', [
        'Expense report guide\n\nA hotel bill needs an itemised receipt. Submit it within 30 days.',
      ]),
      passage('table', 'Travel limits', [
        'Travel limits\n\n| Expense | Limit |\n| --- | --- |\n| Hotel | $300 per night |\n| Meals | $80 per day |\n| Taxi | Actual cost |',
      ]),
    ]);
    const titles = ['Travel policy', 'Expense report guide', 'Travel limits'];
    for (const block of answer.split('\n\n').filter((part) => part.startsWith('**'))) {
      const title = /^\*\*(.+)\*\*\n/.exec(block)![1]!;
      const cite = titles.indexOf(title) + 1;
      expect(cite).toBeGreaterThan(0);
      const quoted = quotedSentences(block);
      expect(quoted.length).toBeGreaterThan(0);
      for (const sentence of quoted) expect(sentence.cite).toBe(cite);
    }
    expect(answer).toContain('The hotel limit is $300 per night. [1]');
  });

  it('quotes a matching table row under its header, and not the rows that do not match', async () => {
    const answer = await answerOf('What is the hotel limit per night?', [
      passage('table', 'Travel limits', [
        'Travel limits\n\n| Expense | Limit |\n| --- | --- |\n| Hotel | $300 per night |\n| Meals | $80 per day |\n| Taxi | Actual cost |',
      ]),
    ]);
    expect(answer).toContain('> | Expense | Limit |\n> | --- | --- |\n> | Hotel | $300 per night [1] |');
    expect(answer).not.toContain('Taxi');
  });

  it('brings the list a quoted sentence introduces', async () => {
    const answer = await answerOf('How do I claim an expense?', [
      passage('expenses', 'Expenses', [
        'Expenses\n\nTo claim an expense:\n\n- Keep the receipt.\n- Submit it in the expense tool within 30 days.\n\nLunch is on us on Fridays.',
      ]),
    ]);
    expect(answer).toContain(
      '> To claim an expense: [1]\n>\n> - Keep the receipt. [1]\n> - Submit it in the expense tool within 30 days. [1]',
    );
  });

  it('quotes clean text: no link targets, emphasis, HTML, or bracketed numbers that would read as citations', async () => {
    const answer = await answerOf('What is the hotel budget?', [
      passage('travel', 'Travel', [
        'Travel\n\nRead the [travel policy](https://example.com/travel) for the __hotel budget__ of **$300** [2].<br>Book the hotel in the <b>travel.<unlink></unlink>io</b> tool.',
      ]),
    ]);
    expect(answer).toContain(
      '> Read the travel policy for the hotel budget of $300 (2). [1] Book the hotel in the travel.io tool. [1]',
    );
  });

  it('quotes the first whole sentences of the sources found when none shares a word with the question', async () => {
    // the search stems in PostgreSQL and matched these; the answer still quotes only whole, cited sentences
    const answer = await answerOf('Capital of France?', [
      passage('brand', 'Brand guidelines', [
        'Brand guidelines\nColours\n\nour palette is blue. Use the blue logo on white. Never stretch the logo. Fonts are Inter.',
      ]),
    ]);
    expect(answer).toContain(
      '**Brand guidelines**\n> **Colours:** Use the blue logo on white. [1] Never stretch the logo. [1]\n',
    );
    expect(answer).not.toContain('Fonts are Inter');
  });

  it('says nothing matched when there are no passages', () => {
    expect(extractiveAnswer('Capital of France?', [], 'sources', new Map())).toEqual([
      "I couldn't find anything about “Capital of France?” in the sources you can read.\n\n",
      'No AI model is configured on this Scout server, so answers quote the most relevant passages, and none matched.',
    ]);
  });
});

describe('the lexicon', () => {
  it('meets the forms of one word as the index stems them, and skips stop words', async () => {
    const answer = await answerOf('Which policies approved leaving early?', [
      passage('a', 'Handbook', [
        'Handbook\n\nThe policy was approved in May. Leave early on Fridays. The weather is mild.',
      ]),
    ]);
    const quoted = quotedSentences(answer).map((sentence) => sentence.text);
    expect(quoted).toContain('The policy was approved in May.');
    expect(quoted).toContain('Leave early on Fridays.');
    expect(quoted).not.toContain('The weather is mild.');
  });
});
