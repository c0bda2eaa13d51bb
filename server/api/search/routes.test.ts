// The search service through HTTP on a real store: filters, sorts and paging against an in-memory reference,
// facets, pins, autosuggest, preview, did-you-mean, tenant isolation and bad input.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AutosuggestResponse,
  HitsStatResponse,
  PreviewResponse,
  SearchResponse,
} from '../../../common/api/search';
import { aclGroupMembers, users, type Org, type User } from '../../db/schema';
import { deleteDocuments, setDocumentAcl, upsertDocuments, type IndexDocument } from '../../search';
import { pick } from '../../search/testing';
import { seededRandom } from '../../testing/random';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let acme: Org;
let other: Org;
let ann: User; // admin
let bob: User;
let cat: User; // in group:drive:eng
let olga: User; // the other org
const tokens = new Map<User, string>();

const NOW = Date.now();
const DAY = 86_400_000;
const SOURCES = ['notion', 'confluence', 'gdrive', 'slack'] as const;
const TYPES = ['Articles', 'Files', 'Messages'] as const;
const FILE_TYPES = ['md', 'pdf', 'docx', 'xlsx', 'message', 'weird'] as const;

interface RefDoc extends IndexDocument {
  id?: string;
}
const corpus: RefDoc[] = [];

function post<T>(user: User, url: string, payload: unknown) {
  return server.app
    .inject({
      method: 'POST',
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${tokens.get(user)}` },
      payload: payload as object,
    })
    .then((res) => ({ status: res.statusCode, body: res.json<T & { code?: string }>() }));
}

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, { domain: 'acme.test' });
  other = await createOrg(db, { domain: 'other.test' });
  ann = await createUser(db, acme, {
    email: 'ann@acme.test',
    admin: true,
    firstName: 'Ann',
    lastName: 'Admin',
  });
  bob = await createUser(db, acme, { email: 'bob@acme.test', firstName: 'Bob', lastName: 'Baker' });
  cat = await createUser(db, acme, { email: 'cat@acme.test', firstName: 'Cat', lastName: 'Cole' });
  olga = await createUser(db, other, { email: 'olga@other.test' });
  for (const user of [ann, bob, cat, olga])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
  await db
    .insert(aclGroupMembers)
    .values({ orgId: acme.id, groupKey: 'group:drive:eng', memberEmail: 'cat@acme.test' });

  const random = seededRandom(7);
  const acls = [
    ['org'],
    ['org'],
    ['user:bob@acme.test'],
    ['group:drive:eng'],
    ['user:ann@acme.test'],
    ['public'],
  ];
  for (let i = 0; i < 60; i++) {
    corpus.push({
      source: pick(random, SOURCES),
      externalId: `d${i}`,
      title: `Quarterly ${i % 3 === 0 ? 'budget' : 'roadmap'} note ${i}`,
      body: `This note talks about the ${i % 2 === 0 ? 'budget' : 'hiring'} plan. ${i % 5 === 0 ? 'Kangaroo sightings.' : ''} Item ${i}.`,
      objectType: pick(random, TYPES),
      fileType: pick(random, FILE_TYPES),
      author: pick(random, ['Ann Admin', 'Bob Baker']),
      authorEmail: pick(random, ['ann@acme.test', 'bob@acme.test']),
      createdTime: new Date(NOW - (i * 7 + 3) * DAY),
      modifiedTime: new Date(NOW - ((i * 13) % 400) * DAY - i * 1000),
      acl: pick(random, acls),
      url: `https://acme.example/doc/${i}`,
    });
  }
  // a word only bob can read, and one only ann can read: the did-you-mean must never offer them to others
  corpus.push({
    source: 'notion',
    externalId: 'secret-bob',
    title: 'Bob 1:1',
    body: 'Discussed the xylophonist recital and compensation.',
    objectType: 'Articles',
    fileType: 'md',
    acl: ['user:bob@acme.test'],
  });
  const result = await upsertDocuments(db, acme.id, corpus);
  result.documentIds.forEach((id, i) => (corpus[i]!.id = id));
  await upsertDocuments(db, other.id, [
    {
      source: 'notion',
      externalId: 'o1',
      title: 'Other budget',
      body: 'Budget of the other org.',
      acl: ['org'],
    },
  ]);
});
afterAll(() => server.close());

const principalsOf = (user: User) => {
  const list = ['org', 'public', `user:${user.email}`];
  if (user === cat) list.push('group:drive:eng');
  return list;
};
const readable = (user: User) => corpus.filter((doc) => doc.acl!.some((p) => principalsOf(user).includes(p)));
const mentions = (doc: RefDoc, word: string) =>
  new RegExp(`\\b${word}`, 'i').test(`${doc.title} ${doc.body}`);

async function allPages(user: User, body: Record<string, unknown>): Promise<SearchResponse['hits']> {
  const hits: SearchResponse['hits'] = [];
  for (let page = 0; page < 20; page++) {
    const res = await post<SearchResponse>(user, '_search', { ...body, page });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    hits.push(...res.body.hits);
    if (!res.body.has_more) return hits;
  }
  throw new Error('more than 20 pages');
}

describe('POST _search', () => {
  it('finds every readable matching document, and only those, with highlighted snippets', async () => {
    for (const user of [ann, bob, cat]) {
      const hits = await allPages(user, { q: 'budget', page_size: 20 });
      const expected = readable(user).filter((doc) => mentions(doc, 'budget'));
      expect(new Set(hits.map((hit) => hit.objectID))).toEqual(new Set(expected.map((doc) => doc.id)));
      expect(hits.length).toBe(expected.length);
      for (const hit of hits) {
        if (/budget/i.test(hit.content)) expect(hit.highlights.length).toBeGreaterThan(0);
        for (const span of hit.highlights)
          expect(hit.content.slice(span.start, span.end).toLowerCase()).toBe('budget');
      }
    }
  });

  it('applies filters and date sorts as the reference does, across pages', async () => {
    const random = seededRandom(11);
    for (let round = 0; round < 25; round++) {
      const user = pick(random, [ann, bob, cat]);
      const source: string[] | undefined = random() < 0.5 ? [pick(random, SOURCES)] : undefined;
      const objectType = random() < 0.4 ? [pick(random, TYPES).toLowerCase()] : undefined;
      const filefilter =
        random() < 0.4 ? [pick(random, ['document', 'pdf', 'spreadsheet', 'other'])] : undefined;
      const modified = random() < 0.4 ? pick(random, ['day', 'week', 'month', 'year']) : undefined;
      const person = random() < 0.3 ? [pick(random, ['ann@acme.test', 'bob@acme.test'])] : undefined;
      const [sort, order] = pick(random, [
        ['modified', 'desc'],
        ['modified', 'asc'],
        ['created', 'desc'],
        ['created', 'asc'],
      ] as const);
      const q = pick(random, ['budget', 'plan', 'hiring', 'quarterly roadmap']);
      const filters = { source, object_type: objectType, filefilter, modified, person_filter: person };
      const hits = await allPages(user, { q, filters, sort, order, page_size: 10 });
      const groups: Record<string, string[]> = {
        document: ['md', 'docx'],
        pdf: ['pdf'],
        spreadsheet: ['xlsx'],
        other: ['message', 'weird'],
      };
      const ranges: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
      const field = sort === 'modified' ? 'modifiedTime' : 'createdTime';
      const expected = readable(user)
        .filter((doc) => q.split(' ').some((word) => mentions(doc, word)))
        .filter((doc) => !source || source.includes(doc.source))
        .filter((doc) => !objectType || objectType.includes(doc.objectType!.toLowerCase()))
        .filter((doc) => !filefilter || groups[filefilter[0]!]!.includes(doc.fileType!))
        .filter((doc) => !modified || doc.modifiedTime!.getTime() >= NOW - ranges[modified]! * DAY - 60_000)
        .filter((doc) => !person || person.includes(doc.authorEmail!))
        .sort((a, b) => (a[field]!.getTime() - b[field]!.getTime()) * (order === 'asc' ? 1 : -1));
      expect(
        hits.map((hit) => hit.objectID),
        JSON.stringify({ q, filters, sort, order }),
      ).toEqual(expected.map((doc) => doc.id));
    }
  });

  it('counts facets by app and type under every other filter, readable documents only', async () => {
    const res = await post<SearchResponse>(bob, '_search', { q: 'budget', filters: { source: ['slack'] } });
    const matching = readable(bob).filter((doc) => mentions(doc, 'budget'));
    const byApp: Record<string, number> = {};
    for (const doc of matching) byApp[doc.source] = (byApp[doc.source] ?? 0) + 1;
    const byType: Record<string, number> = {};
    for (const doc of matching.filter((doc) => doc.source === 'slack')) {
      const key = doc.objectType!.toLowerCase();
      byType[key] = (byType[key] ?? 0) + 1;
    }
    expect(res.body.hitCounts).toEqual({ byApp, byType });
    const stat = await post<HitsStatResponse>(bob, '_hitsStat', {
      q: 'budget',
      filters: { source: ['slack'] },
    });
    expect(stat.body.hitCounts).toEqual(res.body.hitCounts);
  });

  it('keeps orgs apart', async () => {
    const res = await post<SearchResponse>(olga, '_search', { q: 'budget' });
    expect(res.body.hits.map((hit) => hit.name)).toEqual(['Other budget']);
    expect(res.body.hitCounts.byApp).toEqual({ notion: 1 });
    const acmeIds = new Set(corpus.map((doc) => doc.id));
    const preview = await server.app.inject({
      method: 'GET',
      url: `/api/v1/preview?objectId=${corpus[0]!.id}`,
      headers: { authorization: `Bearer ${tokens.get(olga)}` },
    });
    expect(preview.statusCode).toBe(404);
    expect(acmeIds.has(res.body.hits[0]!.objectID)).toBe(false);
  });

  it('suggests a correction from readable words only', async () => {
    const typo = await post<SearchResponse>(ann, '_search', { q: 'budgte' });
    expect(typo.body.query_spell_corrected).toBe('budget');
    // bob reads the word; ann does not, so she gets no hint it exists
    expect(
      (await post<SearchResponse>(bob, '_search', { q: 'xylophonistt' })).body.query_spell_corrected,
    ).toBe('xylophonist');
    expect(
      (await post<SearchResponse>(ann, '_search', { q: 'xylophonistt' })).body.query_spell_corrected,
    ).toBe(null);
    expect((await post<SearchResponse>(ann, '_search', { q: 'budget' })).body.query_spell_corrected).toBe(
      null,
    );
  });

  it('answers bad input with 400 and a code', async () => {
    const bad = [
      { q: '' },
      { q: '   ' },
      { q: 'x'.repeat(1001) },
      { q: 'a', page: -1 },
      { q: 'a', page: 1.5 },
      { q: 'a', page_size: 15 },
      { q: 'a', sort: 'title' },
      { q: 'a', order: 'up' },
      { q: 'a', filters: { source: ['nosuchapp'] } },
      { q: 'a', filters: { filefilter: ['video'] } },
      { q: 'a', filters: { object_type: ['people'] } },
      { q: 'a', filters: { modified: 'decade' } },
      { q: 'a', filters: { person_filter: ['not-an-email'] } },
      { q: 'a', filters: { colour: 'red' } },
      { q: 'a', extra: 1 },
    ];
    for (const payload of bad) {
      const res = await post<SearchResponse>(bob, '_search', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await post(bob, '_hitsStat', { q: '' })).status).toBe(400);
    expect((await post(bob, '_autosuggest', { q: 'a', page: -1 })).status).toBe(400);
    expect((await post(bob, '_RecordRecentVisit', {})).status).toBe(400);
    const anonymous = await server.app.inject({
      method: 'POST',
      url: '/api/v1/_search',
      payload: { q: 'a' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /pin', () => {
  it('lets an admin pin a readable document for a query; members see it first only if they may read it', async () => {
    const everyone = corpus.find((doc) => doc.acl!.includes('org') && !mentions(doc, 'kangaroo'))!;
    const annOnly = corpus.find((doc) => doc.acl!.join() === 'user:ann@acme.test')!;
    const bobOnly = corpus.find((doc) => doc.externalId === 'secret-bob')!;
    const ts = Math.floor(NOW / 1000);
    expect((await post(bob, 'pin', { object_id: everyone.id, q: 'Kangaroo', timestamp: ts })).status).toBe(
      403,
    );
    expect((await post(ann, 'pin', { object_id: bobOnly.id, q: 'kangaroo', timestamp: ts })).status).toBe(
      404,
    );
    expect((await post(ann, 'pin', { object_id: everyone.id, q: 'Kangaroo ', timestamp: ts })).status).toBe(
      200,
    );
    expect((await post(ann, 'pin', { object_id: annOnly.id, q: 'kangaroo', timestamp: ts + 1 })).status).toBe(
      200,
    );
    const forAnn = await post<SearchResponse>(ann, '_search', { q: 'kangaroo' });
    expect(forAnn.body.pins.map((hit) => hit.objectID).sort()).toEqual([everyone.id, annOnly.id].sort());
    const forBob = await post<SearchResponse>(bob, '_search', { q: 'KANGAROO' });
    expect(forBob.body.pins.map((hit) => hit.objectID)).toEqual([everyone.id]);
    await post(ann, 'pin', { object_id: everyone.id, q: 'kangaroo', timestamp: ts, unpin: true });
    expect((await post<SearchResponse>(bob, '_search', { q: 'kangaroo' })).body.pins).toEqual([]);
  });
});

describe('POST _autosuggest', () => {
  it('suggests readable titles, members and the viewer’s own recent queries', async () => {
    await post(cat, '_search', { q: 'quarterly budget' });
    await post(bob, '_search', { q: 'quarterly secrets' });
    const res = await post<AutosuggestResponse>(cat, '_autosuggest', { q: 'quarterly', page: 0 });
    expect(res.status).toBe(200);
    const readableIds = new Set(readable(cat).map((doc) => doc.id));
    expect(res.body.titles.length).toBeGreaterThan(0);
    for (const title of res.body.titles) expect(readableIds.has(title.objectID)).toBe(true);
    expect(res.body.recent).toContain('quarterly budget');
    expect(res.body.recent).not.toContain('quarterly secrets');
    const people = await post<AutosuggestResponse>(cat, '_autosuggest', { q: 'bo', page: 0 });
    expect(people.body.people).toEqual([{ name: 'Bob Baker', email: 'bob@acme.test' }]);
    const bobs = await post<AutosuggestResponse>(ann, '_autosuggest', { q: 'bob 1', page: 0 });
    expect(bobs.body.titles).toEqual([]);
  });
});

describe('GET /preview and POST _RecordRecentVisit', () => {
  const get = (user: User, query: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/v1/preview?${query}`,
      headers: { authorization: `Bearer ${tokens.get(user)}` },
    });

  it('shows a readable document and answers the same 404 for unreadable and unknown ones', async () => {
    const secret = corpus.find((doc) => doc.externalId === 'secret-bob')!;
    const ok = await get(bob, `objectId=${secret.id}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<PreviewResponse>().content).toContain('xylophonist');
    const hidden = await get(ann, `objectId=${secret.id}`);
    const unknown = await get(ann, `objectId=00000000-0000-4000-8000-000000000000`);
    const garbage = await get(ann, `objectId=nope`);
    expect([hidden.statusCode, unknown.statusCode, garbage.statusCode]).toEqual([404, 404, 404]);
    expect(hidden.body).toBe(unknown.body);
  });

  it('answers the document’s address only when it can be opened, never a placeholder host', async () => {
    const { db } = server.store;
    const [real, placeholder] = (
      await upsertDocuments(db, acme.id, [
        {
          source: 'notion',
          externalId: 'preview-real-url',
          title: 'Travel policy',
          body: 'Book trains for trips under four hours.',
          url: 'https://www.notion.so/acme/Travel-policy-1',
          acl: ['user:cat@acme.test'],
        },
        {
          source: 'notion',
          externalId: 'preview-placeholder-url',
          title: 'Demo travel policy',
          body: 'Book trains for trips under four hours.',
          url: 'https://acme.example/notion/travel',
          acl: ['user:cat@acme.test'],
        },
      ])
    ).documentIds;
    const shown = await get(cat, `objectId=${real}`);
    expect(shown.json<PreviewResponse>()).toMatchObject({
      name: 'Travel policy',
      source: 'notion',
      webview_link: 'https://www.notion.so/acme/Travel-policy-1',
      content: 'Book trains for trips under four hours.',
    });
    const demo = await get(cat, `objectId=${placeholder}`);
    expect(demo.json<PreviewResponse>()).toMatchObject({ name: 'Demo travel policy', webview_link: null });
  });

  it('records a visit', async () => {
    const res = await post(bob, '_RecordRecentVisit', { docSource: 'notion', objectID: 'x' });
    expect(res).toEqual({ status: 200, body: { ok: true } });
  });
});

describe('a revocation reaches the cached previews and suggestions at once', () => {
  let org: Org;
  let dan: User;
  const ask = (user: User, query: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/v1/preview?${query}`,
      headers: { authorization: `Bearer ${tokens.get(user)}` },
    });
  const titlesFor = async (user: User, q: string) =>
    (await post<AutosuggestResponse>(user, '_autosuggest', { q, page: 0 })).body.titles.map((t) => t.name);

  beforeAll(async () => {
    const { db } = server.store;
    org = await createOrg(db, { domain: 'revoke.test' });
    dan = await createUser(db, org, { email: 'dan@revoke.test' });
    tokens.set(dan, (await loginTokensFor(server.ctx, dan)).id_token);
  });

  async function indexOne(externalId: string, title: string, acl: string[]): Promise<string> {
    const result = await upsertDocuments(server.store.db, org.id, [
      { source: 'notion', externalId, title, body: `${title}: the quokka budget, line by line.`, acl },
    ]);
    return result.documentIds[0]!;
  }

  it('an ACL change: the member loses the preview and the title on the next request', async () => {
    const id = await indexOne('acl', 'Quokka acquisition memo', ['user:dan@revoke.test']);
    expect((await ask(dan, `objectId=${id}`)).statusCode).toBe(200);
    expect(await titlesFor(dan, 'quokka acq')).toEqual(['Quokka acquisition memo']);
    await setDocumentAcl(server.store.db, org.id, { source: 'notion', externalId: 'acl' }, [
      'user:someone@revoke.test',
    ]);
    expect((await ask(dan, `objectId=${id}`)).statusCode).toBe(404);
    expect(await titlesFor(dan, 'quokka acq')).toEqual([]);
  });

  it('a deletion: the preview and the title go on the next request', async () => {
    const id = await indexOne('gone', 'Quokka deletion memo', ['org']);
    expect((await ask(dan, `objectId=${id}&q=quokka`)).statusCode).toBe(200);
    expect(await titlesFor(dan, 'quokka del')).toEqual(['Quokka deletion memo']);
    await deleteDocuments(server.store.db, org.id, [{ source: 'notion', externalId: 'gone' }]);
    expect((await ask(dan, `objectId=${id}&q=quokka`)).statusCode).toBe(404);
    expect(await titlesFor(dan, 'quokka del')).toEqual([]);
  });

  it('leaving a group: the member loses what the group reads on the next request', async () => {
    const { db } = server.store;
    await db
      .insert(aclGroupMembers)
      .values({ orgId: org.id, groupKey: 'group:gdrive:c1:board', memberEmail: 'dan@revoke.test' });
    const id = await indexOne('board', 'Quokka board minutes', ['group:gdrive:c1:board']);
    expect((await ask(dan, `objectId=${id}`)).statusCode).toBe(200);
    expect(await titlesFor(dan, 'quokka board')).toEqual(['Quokka board minutes']);
    await db.delete(aclGroupMembers).where(eq(aclGroupMembers.orgId, org.id));
    expect((await ask(dan, `objectId=${id}`)).statusCode).toBe(404);
    expect(await titlesFor(dan, 'quokka board')).toEqual([]);
  });

  it('a removed member is no longer suggested on the next request', async () => {
    const fay = await createUser(server.store.db, org, { email: 'fay@revoke.test', firstName: 'Fayette' });
    const people = async () =>
      (await post<AutosuggestResponse>(dan, '_autosuggest', { q: 'fayet', page: 0 })).body.people;
    expect(await people()).toEqual([{ name: 'Fayette', email: 'fay@revoke.test' }]);
    await server.store.db.update(users).set({ status: 'DELETED' }).where(eq(users.id, fay.id));
    expect(await people()).toEqual([]);
  });
});

describe('documents a member cannot read change nothing the member observes', () => {
  let org: Org;
  let eve: User;
  const NEAR_KESTREL = ['kestra', 'kestro', 'kestru', 'kestri', 'kestrk', 'kestrm', 'kestrn', 'kestrp'];
  const NEAR_KESTREL_TOO = ['kestrs', 'kestrt', 'kestrv', 'kestrz', 'kestrb', 'kestrd'];

  beforeAll(async () => {
    const { db } = server.store;
    org = await createOrg(db, { domain: 'stats.test' });
    eve = await createUser(db, org, { email: 'eve@stats.test' });
    tokens.set(eve, (await loginTokensFor(server.ctx, eve)).id_token);
    const readableDocs: IndexDocument[] = Array.from({ length: 12 }, (_, i) => ({
      source: i % 2 ? 'notion' : 'slack',
      externalId: `open-${i}`,
      title: `Walrus ${i % 3 ? 'budget' : 'census'} ${i}`,
      body: `${'walrus '.repeat(1 + (i % 4))}${'budget '.repeat(1 + ((i * 7) % 5))}${'filler words here '.repeat(i % 5)}`,
      objectType: i % 3 ? 'Articles' : 'Messages',
      acl: ['org'],
    }));
    readableDocs.push({
      source: 'notion',
      externalId: 'bird',
      title: 'Birds',
      body: 'A kestrel hovers over the field.',
      acl: ['org'],
    });
    await upsertDocuments(db, org.id, readableDocs);
  });

  async function observe() {
    const search = await post<SearchResponse>(eve, '_search', { q: 'walrus budget', page_size: 20 });
    const stat = await post<HitsStatResponse>(eve, '_hitsStat', { q: 'walrus' });
    const typo = await post<SearchResponse>(eve, '_search', { q: 'kestrle' });
    const suggest = await post<AutosuggestResponse>(eve, '_autosuggest', { q: 'walrus', page: 1 });
    return {
      hits: search.body.hits
        .map((hit) => ({ ...hit, pins: undefined }))
        .sort((a, b) => (a.objectID < b.objectID ? -1 : 1)),
      hitCounts: search.body.hitCounts,
      stat: stat.body.hitCounts,
      correction: typo.body.query_spell_corrected,
      typoHits: typo.body.hits.length,
      titles: suggest.body.titles,
    };
  }

  it('40 admin-only documents holding the member’s words: same hits, counts, suggestions and corrections', async () => {
    const before = await observe();
    expect(before.correction).toBe('kestrel');
    expect(before.hits).toHaveLength(12);
    await upsertDocuments(
      server.store.db,
      org.id,
      Array.from({ length: 40 }, (_, i) => ({
        source: i % 2 ? 'notion' : 'gdrive',
        externalId: `hidden-${i}`,
        title: `Walrus plan ${i}`,
        body: `walrus walrus budget ${[...NEAR_KESTREL, ...NEAR_KESTREL_TOO].join(' ')} kestrle`,
        objectType: 'Files',
        acl: ['user:adam@stats.test'],
      })),
    );
    expect(await observe()).toEqual(before);
  });
});
