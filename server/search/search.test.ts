import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aclGroupMembers, type Org } from '../db/schema';
import { openStore, type Store } from '../db/store';
import { createOrg } from '../testing/fixtures';
import { principalsFor } from './acl';
import { ensureSearchIndexes, type SearchEngine } from './engines';
import { upsertDocuments, type IndexDocument } from './indexer';
import {
  countBy,
  facetCounts,
  MAX_LIMIT,
  SEARCH_SORTS,
  searchChunks,
  type FacetField,
  type SearchFilters,
  type SearchRequest,
  type SearchSort,
} from './search';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';
import { lexemesOf, pick, sample } from './testing';
import { seededRandom } from '../testing/random';

const VOCABULARY = (
  'budget roadmap hiring refund invoice laptop holiday security incident launch design review customer ' +
  'contract payroll benefit travel expense policy meeting quarter revenue forecast pipeline deploy server ' +
  'database outage report strategy brand campaign partner vendor audit compliance training office equipment feedback'
).split(' ');

/** Skewed word choice, so some words are common and some rare. */
const word = (random: () => number) => VOCABULARY[Math.floor(random() ** 2 * VOCABULARY.length)]!;
const words = (random: () => number, min: number, max: number) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => word(random)).join(' ');

/** What the reference implementations know about an indexed document. */
interface Known {
  externalId: string;
  acl: string[];
  lexemes: Set<string>;
  doc: IndexDocument;
}

function searchSuite(
  label: string,
  open: () => Promise<{ store: Store; close: () => Promise<void> }>,
  engines: SearchEngine[],
) {
  describe(label, () => {
    let store: Store;
    let close: () => Promise<void>;
    let lexemeMap: Map<string, string[]>;
    let orgCount = 0;
    const newOrg = () =>
      createOrg(store.db, { domain: `search-${label.replace(/\W/g, '')}-${++orgCount}.example.com` });
    const lexemesOfText = (text: string) =>
      new Set(text.split(/\s+/).flatMap((token) => lexemeMap.get(token.toLowerCase()) ?? []));
    const queryLexemes = (q: string) => lexemesOfText(q);

    beforeAll(async () => {
      ({ store, close } = await open());
      lexemeMap = await lexemesOf(store.db, VOCABULARY);
    });
    afterAll(async () => {
      await close?.();
    });

    /** Indexes documents, remembering their effective ACLs and lexemes for the references. */
    async function index(org: Org, docs: IndexDocument[], ownerEmail?: string): Promise<Map<string, Known>> {
      const result = await upsertDocuments(store.db, org.id, docs, { ownerEmail });
      const known = new Map<string, Known>();
      docs.forEach((doc, i) => {
        const acl =
          doc.acl && doc.acl.length > 0 ? doc.acl.map((p) => p.toLowerCase()) : [`user:${ownerEmail}`];
        known.set(result.documentIds[i]!, {
          externalId: doc.externalId,
          acl,
          lexemes: lexemesOfText(`${doc.title} ${doc.body}`),
          doc,
        });
      });
      return known;
    }

    describe('ACLs inside the ranking query (property)', () => {
      const USERS = Array.from({ length: 30 }, (_, i) => `u${i}@acme.test`);
      const GROUPS = Array.from({ length: 10 }, (_, i) => `group:slack:g${i}`);
      let org: Org;
      let otherOrg: Org;
      const known = new Map<string, Known>();
      const otherKnown = new Map<string, Known>();
      const memberships = new Map<string, string[]>();

      beforeAll(async () => {
        const random = seededRandom(11);
        org = await newOrg();
        otherOrg = await newOrg();
        const rows: (typeof aclGroupMembers.$inferInsert)[] = [];
        for (const email of USERS) {
          const groups = GROUPS.filter(() => random() < 0.2);
          memberships.set(email, groups);
          for (const groupKey of groups) rows.push({ orgId: org.id, groupKey, memberEmail: email });
        }
        await store.db.insert(aclGroupMembers).values(rows);
        const randomAcl = (): string[] => {
          const roll = random();
          if (roll < 0.08) return ['org'];
          if (roll < 0.12) return ['public'];
          if (roll < 0.25) return []; // private to the batch's connection owner
          return sample(
            random,
            [...USERS.map((email) => `user:${email}`), ...GROUPS],
            1 + Math.floor(random() * 3),
          );
        };
        for (let batch = 0; batch < 10; batch++) {
          const docs = Array.from({ length: 50 }, (_, i) => ({
            source: pick(random, ['slack', 'gdrive', 'notion']),
            externalId: `doc-${batch}-${i}`,
            title: words(random, 1, 3),
            body: words(random, 5, 40),
            acl: randomAcl(),
          }));
          for (const [id, entry] of await index(org, docs, USERS[batch * 3]!)) known.set(id, entry);
        }
        // another tenant with the same people, words and open ACLs: none of it may ever show up in `org`
        const docs = Array.from({ length: 60 }, (_, i) => ({
          source: 'slack',
          externalId: `other-${i}`,
          title: words(random, 1, 3),
          body: words(random, 5, 40),
          acl: pick(random, [['org'], ['public'], [`user:${pick(random, USERS)}`], [pick(random, GROUPS)]]),
        }));
        for (const [id, entry] of await index(otherOrg, docs)) otherKnown.set(id, entry);
        await store.db.insert(aclGroupMembers).values(
          USERS.map((email, i) => ({
            orgId: otherOrg.id,
            groupKey: GROUPS[i % GROUPS.length]!,
            memberEmail: email,
          })),
        );
      });

      it('a member’s principals are their user, org, public and their groups', async () => {
        for (const email of USERS.slice(0, 5)) {
          expect((await principalsFor(store.db, org.id, email.toUpperCase())).sort()).toEqual(
            [`user:${email}`, 'org', 'public', ...memberships.get(email)!].sort(),
          );
        }
      });

      for (const engine of engines) {
        it(`${engine}: no hit is ever unreadable, and every readable match is found`, async () => {
          const random = seededRandom(engine === 'sql' ? 21 : 22);
          for (let round = 0; round < 50; round++) {
            const email = pick(random, USERS);
            const principals = await principalsFor(store.db, org.id, email);
            // every fifth a long question, which pg_textsearch scans by its most informative words first
            const q = round % 5 === 4 ? words(random, 10, 16) : words(random, 1, 3);
            const wanted = queryLexemes(q);
            const readable = (entry: Known) => entry.acl.some((principal) => principals.includes(principal));
            const expected = [...known]
              .filter(
                ([, entry]) => readable(entry) && [...wanted].some((lexeme) => entry.lexemes.has(lexeme)),
              )
              .map(([id]) => id)
              .sort();
            const results = await searchChunks(store, {
              orgId: org.id,
              principals,
              q,
              limit: MAX_LIMIT,
              engine,
            });
            for (const hit of results.hits) {
              const entry = known.get(hit.documentId);
              expect(entry, `hit ${hit.documentId} from another org for ${email}: ${q}`).toBeDefined();
              expect(readable(entry!), `${email} cannot read ${entry!.externalId} (${entry!.acl})`).toBe(
                true,
              );
            }
            expect(results.hits.map((hit) => hit.documentId).sort()).toEqual(expected);
            expect(results.total).toBe(expected.length);
            expect(results.hasMore).toBe(false);
          }
        });
      }

      it('keeps tenants apart: searches and facets of one org never see the other’s documents', async () => {
        for (const [orgId, mine] of [
          [org.id, known],
          [otherOrg.id, otherKnown],
        ] as const) {
          const principals = await principalsFor(store.db, orgId, USERS[0]!);
          const results = await searchChunks(store, {
            orgId,
            principals,
            q: VOCABULARY.join(' '),
            limit: MAX_LIMIT,
          });
          expect(results.hits.length).toBeGreaterThan(0);
          for (const hit of results.hits) expect(mine.has(hit.documentId)).toBe(true);
          const facets = await countBy(store, { orgId, principals, q: '' }, 'source');
          const total = facets.reduce((sum, facet) => sum + facet.count, 0);
          const readable = [...mine.values()].filter((entry) =>
            entry.acl.some((p) => principals.includes(p)),
          );
          expect(total).toBe(readable.length);
        }
      });

      it('finds nothing for a viewer without principals', async () => {
        const results = await searchChunks(store, { orgId: org.id, principals: [], q: 'budget' });
        expect(results.hits).toEqual([]);
        expect(results.total).toBe(0);
      });
    });

    describe('statistics that leak nothing (issue 11)', () => {
      for (const engine of engines) {
        it(`${engine}: a member's order and scores do not move when documents they cannot read hold the words`, async () => {
          const org = await newOrg();
          const member = await principalsFor(store.db, org.id, 'member@example.com');
          const shared = (externalId: string, body: string): IndexDocument => ({
            source: 'custom',
            externalId,
            title: externalId,
            body,
            acl: ['org'],
          });
          await index(org, [
            shared('a', 'refund policy meeting'),
            shared('b', 'laptop policy meeting'),
            shared('c', 'refund office'),
            shared('d', 'laptop office'),
            shared('e', 'laptop training'),
          ]);
          const ask = async () =>
            (
              await searchChunks(store, { orgId: org.id, principals: member, q: 'refund laptop', engine })
            ).hits.map((hit) => [hit.externalId, hit.score]);
          const before = await ask();
          // "refund" is the rarer word among what the member reads: its meeting note comes before the other
          const order = before.map(([id]) => id);
          expect(order.indexOf('a')).toBeLessThan(order.indexOf('b'));

          const hidden = Array.from({ length: 40 }, (_, i) => ({
            ...shared(`hidden-${i}`, `refund refund audit ${i}`),
            acl: ['user:admin@example.com'],
          }));
          await index(org, hidden);
          expect(await ask()).toEqual(before);

          // a hidden document shared with everyone, then hidden again: in the statistics, then out
          await index(org, [{ ...hidden[0]!, acl: ['org'] }]);
          expect(await ask()).not.toEqual(before);
          await index(org, [hidden[0]!]);
          expect(await ask()).toEqual(before);
        });
      }
    });

    describe('filters, sorts and facets agree with an in-memory reference', () => {
      let org: Org;
      let known: Map<string, Known>;
      const principals = ['user:viewer@acme.test', 'org', 'public'];
      const day = 86_400_000;
      const base = Date.parse('2025-06-01T00:00:00.000Z');

      beforeAll(async () => {
        const random = seededRandom(5);
        org = await newOrg();
        const docs: IndexDocument[] = Array.from({ length: 80 }, (_, i) => ({
          source: pick(random, ['slack', 'gdrive', 'jira']),
          externalId: `f${i}`,
          title: words(random, 1, 2),
          body: words(random, 3, 25),
          acl: random() < 0.85 ? ['org'] : ['user:someone-else@acme.test'],
          objectType: pick(random, ['messages', 'files', 'tasks', null]),
          fileType: pick(random, ['document', 'pdf', 'spreadsheet', null]),
          authorEmail: pick(random, ['ann@acme.test', 'bob@acme.test', 'cy@acme.test', null]),
          // whole days apart, some equal, some unknown
          modifiedTime: random() < 0.1 ? null : new Date(base - Math.floor(random() * 400) * day),
          createdTime: random() < 0.1 ? null : new Date(base - Math.floor(random() * 800) * day),
        }));
        known = await index(org, docs);
      });

      const randomFilters = (random: () => number): SearchFilters => {
        const filters: SearchFilters = {};
        if (random() < 0.4)
          filters.sources = sample(random, ['slack', 'gdrive', 'jira'], 1 + Math.floor(random() * 2));
        if (random() < 0.3) filters.objectTypes = sample(random, ['messages', 'files', 'tasks'], 1);
        if (random() < 0.3) filters.fileTypes = sample(random, ['document', 'pdf', 'spreadsheet'], 2);
        if (random() < 0.3) filters.authorEmails = [pick(random, ['Ann@acme.test', 'bob@acme.test'])];
        if (random() < 0.3) filters.modifiedAfter = new Date(base - Math.floor(random() * 400) * day);
        if (random() < 0.2) filters.modifiedBefore = new Date(base - Math.floor(random() * 200) * day);
        return filters;
      };

      const passes = (entry: Known, f: SearchFilters) => {
        const d = entry.doc;
        const modified = d.modifiedTime?.getTime() ?? null;
        return (
          entry.acl.some((p) => principals.includes(p)) &&
          (!f.sources || f.sources.includes(d.source)) &&
          (!f.objectTypes || f.objectTypes.includes(d.objectType!)) &&
          (!f.fileTypes || f.fileTypes.includes(d.fileType!)) &&
          (!f.authorEmails || f.authorEmails.map((e) => e.toLowerCase()).includes(d.authorEmail!)) &&
          (!f.modifiedAfter || (modified !== null && modified >= f.modifiedAfter.getTime())) &&
          (!f.modifiedBefore || (modified !== null && modified < f.modifiedBefore.getTime()))
        );
      };

      const byDate =
        (field: 'modifiedTime' | 'createdTime', direction: 1 | -1) =>
        (a: [string, Known], b: [string, Known]) => {
          const x = a[1].doc[field]?.getTime() ?? null;
          const y = b[1].doc[field]?.getTime() ?? null;
          if (x !== y) {
            if (x === null) return 1; // unknown dates last either way
            if (y === null) return -1;
            return direction * (x - y);
          }
          return a[0] < b[0] ? -1 : 1;
        };
      const ORDER: Record<Exclude<SearchSort, 'relevance'>, ReturnType<typeof byDate>> = {
        modified_newest: byDate('modifiedTime', -1),
        modified_oldest: byDate('modifiedTime', 1),
        created_newest: byDate('createdTime', -1),
        created_oldest: byDate('createdTime', 1),
      };

      it('returns exactly the matching readable documents, in the requested order, page by page', async () => {
        const random = seededRandom(9);
        for (let round = 0; round < 40; round++) {
          const filters = randomFilters(random);
          const q = random() < 0.25 ? '' : words(random, 1, 2);
          const sort = pick(random, SEARCH_SORTS);
          const wanted = queryLexemes(q);
          const matching = [...known].filter(
            ([, entry]) =>
              passes(entry, filters) && (q === '' || [...wanted].some((l) => entry.lexemes.has(l))),
          );
          const effective = q === '' && sort === 'relevance' ? 'modified_newest' : sort;
          const request: SearchRequest = { orgId: org.id, principals, q, filters, sort };
          if (effective === 'relevance') {
            const results = await searchChunks(store, { ...request, limit: MAX_LIMIT });
            expect(results.hits.map((hit) => hit.documentId).sort()).toEqual(
              matching.map(([id]) => id).sort(),
            );
            const scores = results.hits.map((hit) => hit.score);
            expect(scores).toEqual([...scores].sort((a, b) => b - a));
          } else {
            const expected = matching.sort(ORDER[effective]).map(([id]) => id);
            const limit = 1 + Math.floor(random() * 7);
            const offset = Math.floor(random() * Math.max(1, expected.length));
            const results = await searchChunks(store, { ...request, limit, offset });
            expect(
              results.hits.map((hit) => hit.documentId),
              JSON.stringify({ q, filters, sort }),
            ).toEqual(expected.slice(offset, offset + limit));
            expect(results.total).toBe(expected.length);
            expect(results.hasMore).toBe(offset + limit < expected.length);
          }
        }
      });

      it('counts facets under the same ACL, query and filters', async () => {
        const random = seededRandom(10);
        const fields: Record<FacetField, (doc: IndexDocument) => string | null | undefined> = {
          source: (doc) => doc.source,
          objectType: (doc) => doc.objectType,
          fileType: (doc) => doc.fileType,
        };
        for (let round = 0; round < 15; round++) {
          const filters = randomFilters(random);
          const q = random() < 0.3 ? '' : words(random, 1, 2);
          const wanted = queryLexemes(q);
          const field = pick(random, Object.keys(fields) as FacetField[]);
          const expected = new Map<string | null, number>();
          for (const entry of known.values()) {
            if (!passes(entry, filters) || (q !== '' && ![...wanted].some((l) => entry.lexemes.has(l))))
              continue;
            const value = fields[field](entry.doc) ?? null;
            expected.set(value, (expected.get(value) ?? 0) + 1);
          }
          const counts = await countBy(store, { orgId: org.id, principals, q, filters }, field);
          expect(new Map(counts.map((facet) => [facet.value, facet.count]))).toEqual(expected);
        }
      });

      it('counts facets from its own ranked pass as facetCounts does, without changing the page', async () => {
        const random = seededRandom(11);
        const shares = await ensureSearchIndexes(store);
        for (let round = 0; round < 10; round++) {
          const filters = { ...randomFilters(random), sources: undefined, objectTypes: undefined };
          const q = words(random, 1, 2);
          const request = { orgId: org.id, principals, q, filters, limit: 5 };
          const plain = await searchChunks(store, request);
          const shared = await searchChunks(store, { ...request, facets: ['source', 'objectType'] });
          expect(shared.hits.map((hit) => hit.documentId)).toEqual(plain.hits.map((hit) => hit.documentId));
          // only pg_textsearch's top-k pass is shared; the SQL engine leaves the counting to facetCounts
          expect(shared.facets !== undefined, q).toBe(shares);
          if (shared.facets) {
            const apart = await facetCounts(
              store,
              { orgId: org.id, principals, q },
              { source: filters, objectType: filters },
            );
            expect(shared.facets, JSON.stringify({ q, filters })).toEqual(apart);
          }
        }
      });
    });

    describe('hits', () => {
      let org: Org;
      const principals = ['user:viewer@acme.test', 'org'];
      const search = (q: string, extra: Partial<SearchRequest> = {}) =>
        searchChunks(store, { orgId: org.id, principals, q, ...extra });
      const handbookBody = [
        '# Handbook',
        Array.from({ length: 60 }, (_, i) => `General rule number ${i} applies to everyone.`).join(' '),
        '## Travel',
        Array.from({ length: 60 }, (_, i) => `Travel guideline ${i} covers trains and hotels.`).join(' '),
        '## Expenses',
        'Meals are reimbursed up to forty euros. Receipts for reimbursements go to the finance portal.',
      ].join('\n\n');

      beforeAll(async () => {
        org = await newOrg();
        const now = Date.now();
        await index(org, [
          {
            source: 'notion',
            externalId: 'handbook',
            title: 'Company handbook',
            body: handbookBody,
            acl: ['org'],
          },
          // the query word once, in the title or in the body of texts of equal length: the title counts more.
          // Indexed first, the body one has the smaller id, which would win a tie.
          {
            source: 'notion',
            externalId: 'untitled',
            title: 'Misc notes',
            body: 'A note on the kangaroo.',
            acl: ['org'],
          },
          {
            source: 'notion',
            externalId: 'titled',
            title: 'Kangaroo notes',
            body: 'A note on the misc.',
            acl: ['org'],
          },
          // identical but for their age (the older one indexed first): the newer ranks first
          {
            source: 'slack',
            externalId: 'old',
            title: 'Standup',
            body: 'Wombat status update.',
            acl: ['org'],
            modifiedTime: new Date(now - 3 * 365 * 86_400_000),
          },
          {
            source: 'slack',
            externalId: 'new',
            title: 'Standup',
            body: 'Wombat status update.',
            acl: ['org'],
            modifiedTime: new Date(now - 86_400_000),
          },
          // one document with many matching chunks must not fill the page
          {
            source: 'gdrive',
            externalId: 'flood',
            title: 'Platypus log',
            body: Array.from({ length: 400 }, (_, i) => `Platypus sighting ${i} near the river.`).join('\n'),
            acl: ['org'],
          },
          ...Array.from({ length: 5 }, (_, i) => ({
            source: 'gdrive',
            externalId: `single-${i}`,
            title: `Note ${i}`,
            body: `One platypus seen on day ${i}.`,
            acl: ['org'],
          })),
        ]);
      });

      it('quotes the best chunk with exact offsets, highlights and its section path', async () => {
        const { hits } = await search('reimbursements receipts');
        const hit = hits[0]!;
        expect(hit).toMatchObject({
          title: 'Company handbook',
          sectionPath: 'Handbook > Expenses',
          source: 'notion',
        });
        expect(handbookBody.slice(hit.offsets.start, hit.offsets.end)).toBe(hit.snippet);
        expect(hit.snippet).toContain('Receipts for reimbursements');
        const highlighted = hit.highlights.map((span) =>
          handbookBody.slice(span.start, span.end).toLowerCase(),
        );
        expect(highlighted.sort()).toEqual(['receipts', 'reimbursed', 'reimbursements']);
        expect(hit.chunks[0]!.chunkId).toBe(hit.chunkId);
        expect(hit.missingTerms).toEqual([]);
      });

      it('names the query words a document misses', async () => {
        const { hits } = await search('kangaroo giraffe');
        expect(hits[0]!.missingTerms).toEqual(['giraffe']);
      });

      it('weighs the title above the body, and newer above older', async () => {
        expect((await search('kangaroo')).hits.map((hit) => hit.title)).toEqual([
          'Kangaroo notes',
          'Misc notes',
        ]);
        expect((await search('wombat')).hits.map((hit) => hit.externalId)).toEqual(['new', 'old']);
      });

      it('collapses one document’s chunks into one hit with a hit list', async () => {
        const { hits, total } = await search('platypus', { limit: 6 });
        expect(total).toBe(6);
        expect(new Set(hits.map((hit) => hit.documentId)).size).toBe(6);
        const flood = hits.find((hit) => hit.title === 'Platypus log')!;
        expect(flood.chunks.length).toBeGreaterThan(1);
        const scores = flood.chunks.map((chunk) => chunk.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      });

      it('pages without repeats or gaps', async () => {
        const all = (await search('platypus', { limit: 50 })).hits.map((hit) => hit.documentId);
        const pages: string[] = [];
        for (let offset = 0; offset < 6; offset += 2) {
          const page = await search('platypus', { limit: 2, offset });
          expect(page.hasMore).toBe(offset + 2 < 6);
          pages.push(...page.hits.map((hit) => hit.documentId));
        }
        expect(pages).toEqual(all);
      });

      it('takes any text as a query: operators, quotes, colons and escapes are just characters', async () => {
        const hostile = [
          "kangaroo's: note",
          'kangaroo & | ! ( ) <-> :* note',
          "'kangaroo' \\ \\' \"note\"",
          'index_name:kangaroo',
          `${'kangaroo '.repeat(300)}`,
          'kängurü 検索 😀 kangaroo',
          '   ',
        ];
        for (const q of hostile) {
          for (const engine of engines) {
            const results = await search(q, { engine });
            if (q.trim()) expect(results.hits.length, q).toBeGreaterThan(0);
          }
        }
      });

      it('ranks a long question from its most informative words as from all of them', async () => {
        const other = await newOrg();
        const random = seededRandom(5);
        const rare = ['aardvark', 'bison', 'cheetah', 'dingo', 'emu', 'ferret', 'gazelle', 'heron'];
        const common = ['meeting', 'report', 'update'];
        const docs = Array.from({ length: 300 }, (_, i) => ({
          source: 'notion',
          externalId: `zoo-${i}`,
          title: `Log ${i}`,
          body: [
            'ubiquitous',
            ...sample(random, rare, 1 + Math.floor(random() * 3)),
            ...common.filter(() => random() < 0.7),
            words(random, 5, 20),
          ].join(' '),
          acl: ['org'],
        }));
        await index(other, docs);
        // 12 terms: the pool of a first page comes from the 8 rare ones (they match every document, more than
        // the pool holds); a page of 1,000 is deeper than the matches, so the whole question is scanned
        const q = [...common, 'ubiquitous', ...rare].join(' ');
        for (const engine of engines) {
          const ask = (limit: number) =>
            searchChunks(store, { orgId: other.id, principals, q, limit, engine });
          const whole = await ask(MAX_LIMIT);
          expect(whole.hits).toHaveLength(300);
          const first = await ask(10);
          expect(
            first.hits.map((hit) => [hit.externalId, hit.score]),
            engine,
          ).toEqual(whole.hits.slice(0, 10).map((hit) => [hit.externalId, hit.score]));
        }
      });

      it('lists the newest documents for an empty query, and nothing for stop words only', async () => {
        const browse = await search('', { limit: 3 });
        // dated documents first, newest first; undated ones after them
        expect(browse.hits.map((hit) => hit.externalId)).toEqual(['new', 'old', browse.hits[2]!.externalId]);
        expect(browse.hits[2]!.modifiedTime).toBeNull();
        expect(browse.total).toBe(11);
        expect((await search('the and of')).hits).toEqual([]);
      });
    });
  });
}

searchSuite(
  'search on embedded PGlite',
  async () => {
    const store = await openStore({ memory: true });
    return { store, close: () => store.close() };
  },
  ['pg_textsearch', 'sql'],
);

describe.skipIf(!testDatabaseUrl)('on a PostgreSQL server (TEST_DATABASE_URL)', () => {
  searchSuite(
    'search on PostgreSQL',
    async () => {
      const { store, drop } = await openServerTestStore('search');
      return { store, close: drop };
    },
    ['sql'],
  );
});
