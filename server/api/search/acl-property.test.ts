// Property: across random users, groups, ACLs and queries, nothing the search service answers (hits, facet
// counts, source-picker counts, suggestions, corrections, previews) ever comes from a document the user may not
// read, and every readable matching document is counted and findable. 50 users, 20 groups, 5,000 documents, 500
// queries. Then revocations, deletions and group changes: the next preview and suggestion already follow them.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutosuggestResponse, HitsStatResponse, SearchResponse } from '../../../common/api/search';
import type { SearchableSourcesResponse } from '../../../common/api/sources';
import { aclGroupMembers, type Org, type User } from '../../db/schema';
import { deleteDocuments, setDocumentAcl, upsertDocuments, type IndexDocument } from '../../search';
import { lexemesOf, pick, sample } from '../../search/testing';
import { seededRandom } from '../../testing/random';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

const USERS = 50;
const GROUPS = 20;
const DOCS = 5000;
const QUERIES = 500;
const BATCH = 500;
const SOURCES = ['notion', 'confluence', 'gdrive', 'slack', 'jira'];
const TYPES = ['Articles', 'Files', 'Messages', 'Tasks'];

let server: TestServer;
let org: Org;
const members: User[] = [];
const tokens = new Map<string, string>();
const principals = new Map<string, Set<string>>();
interface Doc {
  id: string;
  title: string;
  source: string;
  objectType: string;
  acl: string[];
  lexemes: Set<string>;
}
const docs: Doc[] = [];
let vocabulary: string[] = [];
const stems = new Map<string, string[]>();

/** Made-up words (so the English stemmer leaves most alone), drawn Zipf-like so some are rare. */
function makeVocabulary(random: () => number, size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zu', 'pa', 'ne', 'bi', 'dor', 'fen', 'gal', 'hum'];
  const words = new Set<string>();
  while (words.size < size)
    words.add(`${pick(random, syllables)}${pick(random, syllables)}${pick(random, syllables)}x`);
  return [...words];
}
const zipf = (random: () => number, n: number) => Math.min(n - 1, Math.floor(n * random() ** 2.5));

beforeAll(async () => {
  const random = seededRandom(2024);
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'prop.test' });
  for (let i = 0; i < USERS; i++) {
    const user = await createUser(db, org, {
      email: `u${i}@prop.test`,
      firstName: `User${i}`,
      lastName: 'Prop',
    });
    members.push(user);
    tokens.set(user.id, (await loginTokensFor(server.ctx, user)).id_token);
    principals.set(user.id, new Set(['org', 'public', `user:${user.email}`]));
  }
  const memberships: { orgId: string; groupKey: string; memberEmail: string }[] = [];
  for (let g = 0; g < GROUPS; g++) {
    for (const user of sample(random, members, 2 + Math.floor(random() * 6))) {
      memberships.push({ orgId: org.id, groupKey: `group:gdrive:g${g}`, memberEmail: user.email });
      principals.get(user.id)!.add(`group:gdrive:g${g}`);
    }
  }
  await db.insert(aclGroupMembers).values(memberships);

  vocabulary = makeVocabulary(random, 400);
  for (const [word, lexemes] of await lexemesOf(db, vocabulary)) stems.set(word, lexemes);
  const pending: IndexDocument[] = [];
  for (let i = 0; i < DOCS; i++) {
    const words = Array.from(
      { length: 4 + Math.floor(random() * 12) },
      () => vocabulary[zipf(random, vocabulary.length)]!,
    );
    const title = words.slice(0, 2).join(' ');
    const roll = random();
    const acl =
      roll < 0.15
        ? ['org']
        : sample(
            random,
            [
              ...members.map((user) => `user:${user.email}`),
              ...Array.from({ length: GROUPS }, (_, g) => `group:gdrive:g${g}`),
            ],
            1 + Math.floor(random() * 3),
          );
    const doc: IndexDocument = {
      source: pick(random, SOURCES),
      externalId: `p${i}`,
      title,
      body: `${words.join(' ')}.`,
      objectType: pick(random, TYPES),
      fileType: 'md',
      modifiedTime: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
      acl,
    };
    pending.push(doc);
    docs.push({
      id: '',
      title,
      source: doc.source,
      objectType: doc.objectType!,
      acl,
      lexemes: new Set(words.flatMap((word) => stems.get(word) ?? [])),
    });
  }
  for (let i = 0; i < pending.length; i += BATCH) {
    const result = await upsertDocuments(db, org.id, pending.slice(i, i + BATCH));
    result.documentIds.forEach((id, j) => (docs[i + j]!.id = id));
  }
}, 600_000);
afterAll(() => server?.close());

const canRead = (user: User, doc: Doc) => doc.acl.some((p) => principals.get(user.id)!.has(p));
const request = (user: User, method: 'GET' | 'POST', url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: { authorization: `Bearer ${tokens.get(user.id)}` },
    ...(payload ? { payload } : {}),
  });

describe('the search service under random ACLs', () => {
  it('never answers from an unreadable document and finds every readable match', async () => {
    const random = seededRandom(99);
    const byId = new Map(docs.map((doc) => [doc.id, doc]));
    let pagedThrough = 0;
    for (let round = 0; round < QUERIES; round++) {
      const user = pick(random, members);
      const words = Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(random, vocabulary));
      const lexemes = words.flatMap((word) => stems.get(word) ?? []);
      const matching = docs.filter((doc) => lexemes.some((lexeme) => doc.lexemes.has(lexeme)));
      const visible = matching.filter((doc) => canRead(user, doc));
      const context = JSON.stringify({ round, user: user.email, words });

      // facets: exactly the readable matching documents, per app and per type
      const byApp: Record<string, number> = {};
      const byType: Record<string, number> = {};
      for (const doc of visible) {
        byApp[doc.source] = (byApp[doc.source] ?? 0) + 1;
        byType[doc.objectType.toLowerCase()] = (byType[doc.objectType.toLowerCase()] ?? 0) + 1;
      }
      const stat = await request(user, 'POST', '_hitsStat', { q: words.join(' ') });
      expect(stat.statusCode, context).toBe(200);
      expect(stat.json<HitsStatResponse>().hitCounts, context).toEqual({ byApp, byType });

      // hits: readable and matching; all of them when few enough to page through
      const hits: string[] = [];
      for (let page = 0; ; page++) {
        const res = await request(user, 'POST', '_search', { q: words.join(' '), page, page_size: 20 });
        expect(res.statusCode, context).toBe(200);
        const body = res.json<SearchResponse>();
        if (page === 0) expect(body.hitCounts, context).toEqual({ byApp, byType });
        for (const hit of body.hits) {
          const doc = byId.get(hit.objectID)!;
          expect(canRead(user, doc), context).toBe(true);
          expect(
            lexemes.some((lexeme) => doc.lexemes.has(lexeme)),
            context,
          ).toBe(true);
        }
        hits.push(...body.hits.map((hit) => hit.objectID));
        if (page === 0 && body.query_spell_corrected)
          throw new Error(`a correction for words that exist: ${context}`);
        if (!body.has_more || visible.length > 60) break;
      }
      if (visible.length <= 60) {
        pagedThrough++;
        expect(new Set(hits), context).toEqual(new Set(visible.map((doc) => doc.id)));
        expect(hits.length, context).toBe(visible.length);
      }

      // did-you-mean on a misspelling: only a word this user can read
      const typo = `${words[0]!.slice(0, 2)}${words[0]!.slice(3)}q`;
      const corrected = (await request(user, 'POST', '_search', { q: typo })).json<SearchResponse>()
        .query_spell_corrected;
      if (corrected) {
        const suggested = (await lexemesOf(server.store.db, [corrected])).get(corrected) ?? [];
        expect(
          docs.some((doc) => canRead(user, doc) && suggested.some((lexeme) => doc.lexemes.has(lexeme))),
          `${context} ${typo} → ${corrected}`,
        ).toBe(true);
      }

      // autosuggest: readable titles only
      const prefix = words[0]!.slice(0, 3 + Math.floor(random() * 3));
      const suggest = (
        await request(user, 'POST', '_autosuggest', { q: prefix, page: 0 })
      ).json<AutosuggestResponse>();
      for (const title of suggest.titles) {
        const doc = byId.get(title.objectID)!;
        expect(canRead(user, doc), context).toBe(true);
        expect(
          doc.title.split(' ').some((word) => word.startsWith(prefix)),
          context,
        ).toBe(true);
      }
      const expectedTitles = docs.filter(
        (doc) => canRead(user, doc) && doc.title.split(' ').some((word) => word.startsWith(prefix)),
      ).length;
      expect(suggest.titles.length, context).toBe(Math.min(5, expectedTitles));

      // preview: readable → 200, anything else → 404
      const target = pick(random, docs);
      const preview = await request(user, 'GET', `preview?objectId=${target.id}`);
      expect(preview.statusCode, context).toBe(canRead(user, target) ? 200 : 404);
    }
    // the comparison above must have covered many queries in full
    expect(pagedThrough).toBeGreaterThan(QUERIES / 3);
  }, 900_000);

  it('counts for the source picker exactly the documents each member reads, per app', async () => {
    for (const user of members) {
      const numDocs = new Map<string, number>();
      for (const doc of docs)
        if (canRead(user, doc)) numDocs.set(doc.source, (numDocs.get(doc.source) ?? 0) + 1);
      const res = await request(user, 'GET', 'sources');
      expect(res.statusCode, user.email).toBe(200);
      expect(res.json<SearchableSourcesResponse>(), user.email).toEqual({
        apps: [...numDocs.keys()].sort().map((appName) => ({ appName, numDocs: numDocs.get(appName) })),
        files: { numDocs: 0 },
        answers: { numDocs: 0 },
      });
    }
  });

  it('follows every revocation, deletion and group change on the next preview and suggestion', async () => {
    const random = seededRandom(7);
    const { db } = server.store;
    const deleted = new Set<string>();
    const visibleTo = (user: User, doc: Doc) => !deleted.has(doc.id) && canRead(user, doc);
    for (let round = 0; round < 60; round++) {
      const user = pick(random, members);
      const readableNow = docs.filter((doc) => visibleTo(user, doc));
      const target = pick(random, readableNow);
      const prefix = target.title.split(' ')[0]!.slice(0, 4);
      const suggest = async () =>
        (await request(user, 'POST', '_autosuggest', { q: prefix, page: 0 })).json<AutosuggestResponse>()
          .titles;
      // the answers are cached now
      expect((await request(user, 'GET', `preview?objectId=${target.id}`)).statusCode).toBe(200);
      await suggest();

      const ref = { source: target.source, externalId: `p${docs.indexOf(target)}` };
      const group = target.acl.find((p) => p.startsWith('group:') && principals.get(user.id)!.has(p));
      const change = round % 3;
      if (change === 0) {
        target.acl = ['user:nobody@prop.test'];
        await setDocumentAcl(db, org.id, ref, target.acl);
      } else if (change === 1 || !group) {
        deleted.add(target.id);
        await deleteDocuments(db, org.id, [ref]);
      } else {
        await db
          .delete(aclGroupMembers)
          .where(
            and(
              eq(aclGroupMembers.orgId, org.id),
              eq(aclGroupMembers.groupKey, group),
              eq(aclGroupMembers.memberEmail, user.email),
            ),
          );
        principals.get(user.id)!.delete(group);
      }
      const context = JSON.stringify({ round, user: user.email, change, prefix });
      const preview = await request(user, 'GET', `preview?objectId=${target.id}`);
      expect(preview.statusCode, context).toBe(visibleTo(user, target) ? 200 : 404);
      const titles = await suggest();
      for (const title of titles)
        expect(
          visibleTo(
            user,
            docs.find((doc) => doc.id === title.objectID)!,
          ),
          context,
        ).toBe(true);
      const expected = docs.filter(
        (doc) => visibleTo(user, doc) && doc.title.split(' ').some((word) => word.startsWith(prefix)),
      ).length;
      expect(titles.length, context).toBe(Math.min(5, expected));
    }
  }, 300_000);
});
