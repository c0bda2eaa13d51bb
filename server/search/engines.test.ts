/**
 * The two engines must agree (DESIGN §4): the same corpus is searched through pg_textsearch's bm25 index and
 * through BM25 computed in SQL — on embedded PGlite (the SQL engine forced) and, with TEST_DATABASE_URL, on a
 * PostgreSQL server — and their top 10 documents compared.
 *
 * Tolerance. Both engines hand their candidate pool to the same scoring function (ranking.ts) with the same
 * per-org statistics, so any difference comes from the pool alone: the SQL engine takes the chunks that hold
 * ALL query terms first and looks at any-term matches only when those are too few, and pg_textsearch proposes
 * its candidates by index-wide statistics (this corpus shares the index with a second org). A document can
 * therefore miss one pool and not the other only near the pool's edge, ten times deeper than the page. We
 * require identical top-10 sets for at least 90% of the queries, at least 8 of 10 in common for every query,
 * and identical order and scores wherever the sets are identical (the scoring is deterministic).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/store';
import { createOrg } from '../testing/fixtures';
import type { SearchEngine } from './engines';
import { decisivePrefix, ensureSearchIndexes, MAX_CANDIDATE_TERMS, selectiveText } from './engines';
import { upsertDocuments, type IndexDocument } from './indexer';
import { searchChunks } from './search';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';
import { pick } from './testing';
import { seededRandom } from '../testing/random';

const SYLLABLES = 'ka lo mi tran sep vor quil ben dra fos nim pel gor ust rey chal'.split(' ');

/** A Zipf-like vocabulary: word i is drawn with probability ∝ 1/(i+1). */
function vocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    words.add(Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(random, SYLLABLES)).join(''));
  }
  return [...words];
}

function zipf(random: () => number, words: readonly string[]): string {
  const harmonic = words.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
  let target = random() * harmonic;
  for (let i = 0; i < words.length; i++) {
    target -= 1 / (i + 1);
    if (target <= 0) return words[i]!;
  }
  return words[words.length - 1]!;
}

/** One language for both orgs, as in real life: the same words with the same frequencies. */
const WORDS = vocabulary(seededRandom(1), 400);

function corpus(seed: number, count: number, prefix: string): { docs: IndexDocument[]; queries: string[] } {
  const random = seededRandom(seed);
  const words = WORDS;
  const text = (n: number) => Array.from({ length: n }, () => zipf(random, words)).join(' ');
  const sentences = (n: number) =>
    Array.from({ length: n }, () => `${text(6 + Math.floor(random() * 10))}.`).join(' ');
  const docs = Array.from({ length: count }, (_, i) => {
    const long = random() < 0.15;
    const body = long
      ? [`# ${text(2)}`, sentences(60), `## ${text(2)}`, sentences(80)].join('\n\n')
      : sentences(2 + Math.floor(random() * 20));
    return {
      source: pick(random, ['slack', 'notion']),
      externalId: `${prefix}${i}`,
      title: text(2 + Math.floor(random() * 4)),
      body,
      acl: ['org'],
      modifiedTime: new Date(Date.parse('2025-01-01T00:00:00Z') - Math.floor(random() * 1000) * 86_400_000),
    };
  });
  const queries = Array.from({ length: 40 }, () => {
    const n = 1 + Math.floor(random() * 4);
    // mostly frequent words, sometimes a rare one
    return Array.from({ length: n }, () => (random() < 0.2 ? pick(random, words) : zipf(random, words))).join(
      ' ',
    );
  });
  return { docs, queries };
}

const NOW = new Date('2025-01-02T00:00:00Z');
const main = corpus(3, 250, 'd');
const neighbour = corpus(4, 100, 'n');

async function indexCorpus(store: Store): Promise<string> {
  const org = await createOrg(store.db, { domain: `engines-${Date.now().toString(36)}.example.com` });
  const other = await createOrg(store.db, { domain: `engines-other-${Date.now().toString(36)}.example.com` });
  await ensureSearchIndexes(store);
  for (let i = 0; i < main.docs.length; i += 100)
    await upsertDocuments(store.db, org.id, main.docs.slice(i, i + 100));
  await upsertDocuments(store.db, other.id, neighbour.docs);
  return org.id;
}

type TopTen = { ids: string[]; scores: number[] }[];

async function topTens(store: Store, orgId: string, engine: SearchEngine): Promise<TopTen> {
  const out: TopTen = [];
  for (const q of main.queries) {
    const { hits } = await searchChunks(store, {
      orgId,
      principals: ['org'],
      q,
      engine,
      now: NOW,
      count: false,
    });
    out.push({ ids: hits.map((hit) => hit.externalId), scores: hits.map((hit) => hit.score) });
  }
  return out;
}

function expectAgreement(a: TopTen, b: TopTen, sameStore: boolean) {
  let identical = 0;
  a.forEach((left, i) => {
    const right = b[i]!;
    const common = left.ids.filter((id) => right.ids.includes(id)).length;
    expect(common, `query "${main.queries[i]}"`).toBeGreaterThanOrEqual(Math.min(8, left.ids.length));
    if (common === left.ids.length && common === right.ids.length) {
      identical++;
      // ties are broken by document id, which only one store shares with itself
      if (sameStore) expect(right.ids).toEqual(left.ids);
      right.ids.forEach((id, j) =>
        expect(right.scores[j]).toBeCloseTo(left.scores[left.ids.indexOf(id)]!, 9),
      );
    }
  });
  expect(identical / a.length).toBeGreaterThanOrEqual(0.9);
}

describe("the SQL engine's any-term pass", () => {
  it('takes the fewest heaviest terms whose lightest outscores everything the others could give', () => {
    // a rare word, a less rare one and a common one: a chunk with only the common one cannot outrank the others
    expect(decisivePrefix([12.3, 9.7, 2.6])).toBe(2);
    // similar weights (a long question): no shortcut
    expect(decisivePrefix([1, 1, 1, 1])).toBe(4);
    expect(decisivePrefix([10, 1])).toBe(1);
    expect(decisivePrefix([5])).toBe(1);
    expect(decisivePrefix([])).toBe(0);
  });
});

describe("pg_textsearch's scan text for long queries", () => {
  const term = (lexeme: string, weight: number, words = [lexeme]) => ({ lexeme, weight, words });

  const N = MAX_CANDIDATE_TERMS;
  // the words of w{N} down to w{from}, heaviest first
  const heaviest = (from: number) => Array.from({ length: N + 1 - from }, (_, i) => `w${N - i}`).join(' ');

  it(`scans a query of up to ${N} terms whole`, () => {
    expect(selectiveText(Array.from({ length: N }, (_, i) => term(`w${i}`, i)))).toBeNull();
  });

  it(`takes the words of the ${N} heaviest terms, skipping terms no plain word gives`, () => {
    const terms = [
      ...Array.from({ length: N + 1 }, (_, i) => term(`w${i}`, i + 1)),
      term('heat-transf', 1000, []),
      term('flow', 500, ['flows', 'flow']),
    ];
    expect(selectiveText(terms)).toBe(`flows ${heaviest(2)}`);
  });

  it('keeps a term no shared chunk holds: it may be in documents only this member reads', () => {
    const terms = [...Array.from({ length: N + 1 }, (_, i) => term(`w${i}`, i + 1)), term('tessellate', 999)];
    expect(selectiveText(terms)).toBe(`tessellate ${heaviest(2)}`);
  });
});

describe('engine agreement', () => {
  let store: Store;
  let orgId: string;
  let reference: TopTen;

  beforeAll(async () => {
    store = await openStore({ memory: true });
    orgId = await indexCorpus(store);
    reference = await topTens(store, orgId, 'pg_textsearch');
  });
  afterAll(async () => {
    await store?.close();
  });

  it('proposes real hits for most queries (the comparison is not vacuous)', () => {
    expect(reference.filter((top) => top.ids.length === 10).length).toBeGreaterThan(30);
  });

  it('BM25 in SQL on PGlite agrees with pg_textsearch on PGlite', async () => {
    expectAgreement(reference, await topTens(store, orgId, 'sql'), true);
  });

  describe.skipIf(!testDatabaseUrl)('on a PostgreSQL server (TEST_DATABASE_URL)', () => {
    it('BM25 in SQL on PostgreSQL agrees with pg_textsearch on PGlite', async () => {
      const { store: server, drop } = await openServerTestStore('engines');
      try {
        const serverOrg = await indexCorpus(server);
        expectAgreement(reference, await topTens(server, serverOrg, 'sql'), false);
      } finally {
        await drop();
      }
    });
  });
});
