import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_LINK_FORMAT, type BookmarksResponse } from '../../../common/api/bookmarks';
import type { OrgView } from '../../../common/api/orgs';
import type { CurrentUser } from '../../../common/api/session';
import {
  BOOKMARKS_PER_LIST_MAX,
  BOOKMARK_LINK_MAX_CHARS,
  BOOKMARK_TITLE_MAX_CHARS,
} from '../../../common/limits';
import { validation } from '../../../common/strings';
import { orgs, users, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let org: Org;
let admin: User;
let member: User;
let adminToken: string;
let memberToken: string;
let outsiderToken: string;

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'marks.test' });
  admin = await createUser(db, org, { email: 'ada@marks.test', admin: true });
  member = await createUser(db, org, { email: 'ben@marks.test' });
  const otherOrg = await createOrg(db, { domain: 'other.test' });
  const outsider = await createUser(db, otherOrg, { email: 'eve@other.test', admin: true });
  adminToken = (await loginTokensFor(server.ctx, admin)).id_token;
  memberToken = (await loginTokensFor(server.ctx, member)).id_token;
  outsiderToken = (await loginTokensFor(server.ctx, outsider)).id_token;
});
afterAll(() => server.close());

const request = (method: 'GET' | 'PATCH', url: string, token: string, payload?: object) =>
  server.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` }, payload });

const marks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ title: `Link ${i + 1}`, link: `https://l${i + 1}.example/` }));

async function storedUserLinks(id: string) {
  const [row] = await server.store.db.select().from(users).where(eq(users.id, id));
  return row?.homepageLinks;
}
async function storedOrgLinks() {
  const [row] = await server.store.db.select().from(orgs).where(eq(orgs.id, org.id));
  return row?.homepageLinks;
}

describe('PATCH /users/{id}/bookmarks', () => {
  it('stores the list in the order sent and the user reads it back in that order', async () => {
    const list = [
      { title: '  Handbook ', link: ' https://handbook.example/start ' },
      { title: 'Wiki', link: 'http://wiki.example' },
    ];
    const res = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, { bookmarks: list });
    expect(res.statusCode, res.body).toBe(200);
    const trimmed = [
      { title: 'Handbook', link: 'https://handbook.example/start' },
      { title: 'Wiki', link: 'http://wiki.example' },
    ];
    expect(res.json<BookmarksResponse>().bookmarks).toEqual(trimmed);

    const reordered = [trimmed[1], trimmed[0]];
    await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, { bookmarks: reordered });
    const me = await request('GET', '/_fetchData/user', memberToken);
    expect(me.json<CurrentUser>().homepageLinks).toEqual(reordered);
    // the admin's own list is another list
    const adminView = await request('GET', '/_fetchData/user', adminToken);
    expect(adminView.json<CurrentUser>().homepageLinks).toEqual([]);
  });

  it(`takes ${BOOKMARKS_PER_LIST_MAX} bookmarks and refuses one more, changing nothing`, async () => {
    const full = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, {
      bookmarks: marks(BOOKMARKS_PER_LIST_MAX),
    });
    expect(full.statusCode, full.body).toBe(200);
    const res = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, {
      bookmarks: marks(BOOKMARKS_PER_LIST_MAX + 1),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await storedUserLinks(member.id)).toHaveLength(BOOKMARKS_PER_LIST_MAX);
  });

  it.each([
    ['a javascript: link', 'javascript:alert(document.cookie)', validation.invalidUrl(BOOKMARK_LINK_FORMAT)],
    ['a link without a scheme', 'wiki.example', validation.invalidUrl(BOOKMARK_LINK_FORMAT)],
    ['a data: link', 'data:text/html,<script>alert(1)</script>', validation.invalidUrl(BOOKMARK_LINK_FORMAT)],
    ['a link over the limit', `https://a.example/${'x'.repeat(BOOKMARK_LINK_MAX_CHARS)}`, 'at most 3000'],
  ])('refuses %s with a 400 naming why, changing nothing', async (_, link, message) => {
    const before = await storedUserLinks(member.id);
    const res = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, {
      bookmarks: [{ title: 'Bad', link }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string; message: string }>().code).toBe('VALIDATION_FAILED');
    expect(res.json<{ message: string }>().message).toContain(message);
    expect(await storedUserLinks(member.id)).toEqual(before);
  });

  it('refuses a title over the limit and a duplicate title, whatever its case', async () => {
    const long = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, {
      bookmarks: [{ title: 'x'.repeat(BOOKMARK_TITLE_MAX_CHARS + 1), link: 'https://a.example' }],
    });
    expect(long.statusCode).toBe(400);
    const atLimit = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, {
      bookmarks: [{ title: 'x'.repeat(BOOKMARK_TITLE_MAX_CHARS), link: 'https://a.example' }],
    });
    expect(atLimit.statusCode, atLimit.body).toBe(200);

    const duplicate = await request('PATCH', `/users/${member.id}/bookmarks`, memberToken, {
      bookmarks: [
        { title: 'Wiki', link: 'https://a.example' },
        { title: ' wiki ', link: 'https://b.example' },
      ],
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json<{ message: string }>().message).toContain(validation.DUPLICATE_BOOKMARK_TITLE);
    expect(await storedUserLinks(member.id)).toHaveLength(1);
  });

  it("refuses another member's list, even an admin's call, and leaves it as it was", async () => {
    const before = await storedUserLinks(member.id);
    const res = await request('PATCH', `/users/${member.id}/bookmarks`, adminToken, { bookmarks: [] });
    expect(res.statusCode).toBe(403);
    expect(await storedUserLinks(member.id)).toEqual(before);
  });
});

describe('PATCH /orgs/bookmarks', () => {
  it('lets an admin set the company list, which every member reads in order with the org', async () => {
    const list = marks(3).reverse();
    const res = await request('PATCH', '/orgs/bookmarks', adminToken, { bookmarks: list });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BookmarksResponse>().bookmarks).toEqual(list);
    const asMember = await request('GET', '/_fetchData/org', memberToken);
    expect(asMember.json<OrgView>().homepageLinks).toEqual(list);
    // another org's admin writes their own org's list only
    await request('PATCH', '/orgs/bookmarks', outsiderToken, { bookmarks: marks(1) });
    expect(await storedOrgLinks()).toEqual(list);
  });

  it('refuses a member with a 403, whatever the body, and changes nothing', async () => {
    const before = await storedOrgLinks();
    for (const body of [{ bookmarks: [] }, { bookmarks: 'not a list' }]) {
      const res = await request('PATCH', '/orgs/bookmarks', memberToken, body);
      expect(res.statusCode).toBe(403);
    }
    expect(await storedOrgLinks()).toEqual(before);
  });

  it('applies the same limits to the company list, through PATCH /orgs homepage_links too', async () => {
    const before = await storedOrgLinks();
    const tooMany = await request('PATCH', '/orgs/bookmarks', adminToken, {
      bookmarks: marks(BOOKMARKS_PER_LIST_MAX + 1),
    });
    expect(tooMany.statusCode).toBe(400);
    const viaSettings = await request('PATCH', '/orgs', adminToken, {
      homepage_links: [
        { title: 'Same', link: 'https://a.example' },
        { title: 'Same', link: 'https://b.example' },
      ],
    });
    expect(viaSettings.statusCode).toBe(400);
    expect(viaSettings.json<{ message: string }>().message).toContain(validation.DUPLICATE_BOOKMARK_TITLE);
    expect(await storedOrgLinks()).toEqual(before);
  });

  it('never serves a stored link that breaks the rules', async () => {
    await server.store.db
      .update(orgs)
      .set({
        homepageLinks: [
          { title: 'Old', link: 'javascript:alert(1)' },
          { title: 'Good', link: 'https://good.example' },
        ],
      })
      .where(eq(orgs.id, org.id));
    const res = await request('GET', '/_fetchData/org', memberToken);
    expect(res.json<OrgView>().homepageLinks).toEqual([{ title: 'Good', link: 'https://good.example' }]);
  });
});
