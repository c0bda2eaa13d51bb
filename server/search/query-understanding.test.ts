import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/store';
import { createOrg } from '../testing/fixtures';
import { upsertDocuments } from './indexer';
import {
  INTENT_WEIGHT,
  MAX_SYNONYMS,
  SYNONYM_WEIGHT,
  expandableWords,
  weighQueryTerms,
  wordNet,
  type AnalysedTerm,
} from './query-understanding';
import { searchChunks } from './search';

describe('WordNet synonyms (the real dictionary files)', () => {
  const wordnet = wordNet();

  it('gives the other words of a word’s only sense', () => {
    expect(wordnet.synonyms('vacation')).toEqual(['holiday']);
    expect(wordnet.synonyms('apartment')).toEqual(['flat']);
  });

  it('gives the words of a clearly dominant sense, at most MAX_SYNONYMS, never the word itself', () => {
    const synonyms = wordnet.synonyms('doctor');
    expect(synonyms).toContain('physician');
    expect(synonyms).not.toContain('doctor');
    expect(synonyms.length).toBeLessThanOrEqual(MAX_SYNONYMS);
    expect(wordnet.synonyms('Physician')).toContain('doctor');
  });

  it('leaves alone a word of several common senses', () => {
    // "holiday": a vacation or a day off for a festival; "leave": a verb and noun of many senses
    expect(wordnet.synonyms('holiday')).toEqual([]);
    expect(wordnet.synonyms('leave')).toEqual([]);
  });

  it('reads inflected forms through their base form', () => {
    expect(wordnet.synonyms('babies')).toContain('infant');
    expect(wordnet.synonyms('apartments')).toEqual(['flat']);
  });

  it('gives only single plain words, and nothing for words it does not know', () => {
    for (const word of ['illness', 'salary', 'lunch']) {
      const synonyms = wordnet.synonyms(word);
      expect(synonyms.length).toBeGreaterThan(0);
      for (const synonym of synonyms) expect(synonym).toMatch(/^[a-z]+$/);
    }
    expect(wordnet.synonyms('sourcegraph')).toEqual([]);
    expect(wordnet.synonyms('time-off')).toEqual([]);
    expect(wordnet.synonyms('')).toEqual([]);
  });
});

describe('weighQueryTerms', () => {
  const term = (lexeme: string, ...words: string[]): AnalysedTerm => ({ lexeme, count: 1, words });
  const idfOf = (idfs: Record<string, number>) => (lexeme: string) => idfs[lexeme] ?? 1;

  it('weighs down words that only ask, when the question names a topic', () => {
    const terms = [term('mani', 'many'), term('day', 'days'), term('leav', 'leave'), term('take', 'take')];
    const weighed = weighQueryTerms(terms, [], idfOf({}));
    expect(weighed.map((t) => [t.lexeme, t.weight])).toEqual([
      ['mani', INTENT_WEIGHT],
      ['day', 1],
      ['leav', 1],
      ['take', INTENT_WEIGHT],
    ]);
    expect(weighed.every((t) => t.original)).toBe(true);
    // a query of intent words only keeps them whole: they are all it says
    expect(weighQueryTerms([term('take', 'take')], [], idfOf({}))[0]!.weight).toBe(1);
    // a lexeme that a topic word also gives is a topic term
    expect(weighQueryTerms([term('like', 'like', 'liked')], [], idfOf({}))[0]!.weight).toBe(1);
  });

  it('adds synonyms after the query’s own terms, each below its word however rare it is', () => {
    const weighed = weighQueryTerms(
      [term('vacat', 'vacation'), term('rule', 'rules')],
      [
        { lexeme: 'holiday', of: 'vacat' },
        { lexeme: 'regul', of: 'rule' },
      ],
      idfOf({ vacat: 2, holiday: 6, rule: 3, regul: 1 }),
    );
    expect(weighed.map((t) => [t.lexeme, t.original])).toEqual([
      ['vacat', true],
      ['rule', true],
      ['holiday', false],
      ['regul', false],
    ]);
    const [vacation, rule, holiday, regulation] = weighed;
    expect(holiday!.weight * holiday!.idf).toBeCloseTo(SYNONYM_WEIGHT * vacation!.weight * vacation!.idf);
    expect(regulation!.weight * regulation!.idf).toBeCloseTo(SYNONYM_WEIGHT * rule!.weight * regulation!.idf);
  });

  it('never turns a query word into a synonym, nor expands what is not in the query', () => {
    const weighed = weighQueryTerms(
      [term('doctor', 'doctor'), term('physician', 'physician')],
      [
        { lexeme: 'physician', of: 'doctor' },
        { lexeme: 'md', of: 'doctor' },
        { lexeme: 'md', of: 'physician' },
        { lexeme: 'flat', of: 'apart' },
      ],
      idfOf({}),
    );
    expect(weighed.map((t) => [t.lexeme, t.weight, t.original])).toEqual([
      ['doctor', 1, true],
      ['physician', 1, true],
      ['md', SYNONYM_WEIGHT, false],
    ]);
  });

  it('expands topic words only', () => {
    expect(expandableWords([term('mani', 'many'), term('babi', 'babies', 'baby')])).toEqual([
      'babies',
      'baby',
    ]);
  });
});

describe('search with synonyms (real store)', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('ranks the page that says it in other words first, and never shows a page the member cannot read', async () => {
    const org = await createOrg(store.db, { domain: 'synonyms.example.com' });
    const page = (externalId: string, body: string, acl: string[]) => ({
      source: 'notion',
      externalId,
      title: externalId,
      body,
      acl,
    });
    await upsertDocuments(store.db, org.id, [
      page('parking', 'Rules for the office car park: park in a marked bay and show the permit.', ['org']),
      page('holidays', 'Rules for your holiday: book it two weeks ahead and tell the team.', ['org']),
      page('private-holidays', 'Rules for holiday pay of directors: holiday holiday holiday.', [
        'user:ceo@synonyms.example.com',
      ]),
    ]);
    const search = (q: string) =>
      searchChunks(store, { orgId: org.id, principals: ['org', 'user:ben@synonyms.example.com'], q });

    const results = await search('vacation rules');
    expect(results.hits.map((hit) => hit.externalId)).toEqual(['holidays', 'parking']);
    // what the member asked is what they are told matched: a synonym is not a query term
    expect(results.terms).toEqual(['vacat', 'rule']);
    expect(results.matchedTerms).toEqual(['rule']);
    // the same question in the page's own word still ranks it first, and above the synonym's score
    const own = await search('holiday rules');
    expect(own.hits[0]!.externalId).toBe('holidays');
    expect(own.hits[0]!.score).toBeGreaterThan(results.hits[0]!.score);
  });
});
