import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FatalSourceError } from './errors';
import { cursorPages, linkPages, numberedPages, startFakeServer, type FakeServer } from './fake-server';
import { createHttpClient, type HttpClient } from './http';
import {
  paginateByCursor,
  paginateByLinkHeader,
  paginateByNextLink,
  paginateByPageNumber,
  parseLinkHeader,
} from './pagination';
import { collect } from './testing';

const letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const item = z.object({ id: z.string() });
const fixture = () => letters.map((id) => ({ id }));

let fake: FakeServer;
let http: HttpClient;

beforeEach(async () => {
  fake = await startFakeServer();
  http = createHttpClient({ baseUrl: fake.url });
});

afterEach(async () => {
  await fake.close();
});

const ids = (pages: readonly { items: readonly { id: string }[] }[]) =>
  pages.flatMap((page) => page.items.map((x) => x.id));

describe('cursor pagination', () => {
  const cursorPage = z.object({ items: z.array(item), next_cursor: z.string().nullable() });
  const options = {
    path: '/items',
    schema: cursorPage,
    items: (page: z.output<typeof cursorPage>) => page.items,
    nextCursor: (page: z.output<typeof cursorPage>) => page.next_cursor,
  };

  it('walks every page and resumes from a saved cursor', async () => {
    fake.route('GET', '/items', cursorPages(fixture, { pageSize: 3 }));

    const pages = await collect(paginateByCursor(http, options));
    expect(ids(pages)).toEqual(letters);
    expect(pages.map((page) => page.next === null)).toEqual([false, false, true]);

    const resumed = await collect(paginateByCursor(http, { ...options, startCursor: pages[0]!.next }));
    expect(ids(resumed)).toEqual(letters.slice(3));
  });

  it('carries the cursor in a JSON body for POST listings', async () => {
    fake.route('POST', '/search', (request) => {
      const body = z.object({ query: z.string(), start_cursor: z.string().optional() }).parse(request.json());
      const start = Number(body.start_cursor ?? 0);
      return {
        json: {
          results: letters.slice(start, start + 4),
          next: start + 4 < letters.length ? String(start + 4) : '',
        },
      };
    });
    const pages = await collect(
      paginateByCursor(http, {
        path: '/search',
        request: { method: 'POST', json: { query: 'x' } },
        cursorParam: 'start_cursor',
        cursorIn: 'body',
        schema: z.object({ results: z.array(z.string()), next: z.string() }),
        items: (page) => page.results,
        nextCursor: (page) => page.next,
      }),
    );
    expect(pages.flatMap((page) => page.items)).toEqual(letters);
  });

  it('stops a source that hands back the same cursor forever', async () => {
    fake.route('GET', '/items', () => ({ json: { items: [{ id: 'a' }], next_cursor: 'same' } }));
    await expect(collect(paginateByCursor(http, { ...options, startCursor: 'same' }))).rejects.toBeInstanceOf(
      FatalSourceError,
    );
  });
});

describe('page-number pagination', () => {
  const numbered = z.object({ items: z.array(item), has_more: z.boolean() });

  it('counts pages until the source says there are no more, and resumes from a page number', async () => {
    fake.route('GET', '/items', numberedPages(fixture, { pageSize: 3 }));
    const options = {
      path: '/items',
      pageSize: 3,
      schema: numbered,
      items: (page: z.output<typeof numbered>) => page.items,
      hasMore: (page: z.output<typeof numbered>) => page.has_more,
    };

    const pages = await collect(paginateByPageNumber(http, options));
    expect(ids(pages)).toEqual(letters);
    expect(pages.map((page) => page.next)).toEqual([2, 3, null]);
    expect(fake.requests.map((request) => request.search)).toEqual([
      '?per_page=3&page=1',
      '?per_page=3&page=2',
      '?per_page=3&page=3',
    ]);

    const resumed = await collect(paginateByPageNumber(http, { ...options, startPage: 3 }));
    expect(ids(resumed)).toEqual(['g']);
  });

  it('without hasMore, stops at the first short page', async () => {
    fake.route('GET', '/items', numberedPages(fixture, { pageSize: 7, firstPage: 0 }));
    const pages = await collect(
      paginateByPageNumber(http, {
        path: '/items',
        firstPage: 0,
        pageSize: 4,
        schema: numbered,
        items: (page) => page.items,
      }),
    );
    expect(ids(pages)).toEqual(letters);
    expect(pages).toHaveLength(2);
  });
});

describe('Link header pagination', () => {
  it('follows rel="next" links and resumes from a saved link', async () => {
    fake.route('GET', '/repos/x/issues', linkPages(fixture, { pageSize: 3 }));
    const options = {
      path: '/repos/x/issues',
      request: { query: { state: 'all' } },
      schema: z.array(item),
      items: (page: { id: string }[]) => page,
    };

    const pages = await collect(paginateByLinkHeader(http, options));
    expect(ids(pages)).toEqual(letters);
    expect(fake.requests.map((request) => request.search)).toEqual([
      '?state=all',
      '?state=all&page=2',
      '?state=all&page=3',
    ]);

    const resumed = await collect(paginateByLinkHeader(http, { ...options, startUrl: pages[1]!.next }));
    expect(ids(resumed)).toEqual(['g']);
  });

  it('refuses a next link to another origin', async () => {
    fake.route('GET', '/items', () => ({
      json: [],
      headers: { link: '<https://elsewhere.example/items?page=2>; rel="next"' },
    }));
    const secured = http.with({ baseUrl: fake.url, headers: { authorization: 'Bearer t' } });
    await expect(
      collect(
        paginateByLinkHeader(secured, { path: '/items', schema: z.array(item), items: (page) => page }),
      ),
    ).rejects.toThrow('refusing to send credentials to another origin');
  });

  it('parses links with several relations and relative targets', () => {
    expect(
      parseLinkHeader('</items?page=3>; rel="next last", <https://x.example/items?page=1>; rel=first'),
    ).toEqual({
      next: '/items?page=3',
      last: '/items?page=3',
      first: 'https://x.example/items?page=1',
    });
    expect(parseLinkHeader(null)).toEqual({});
  });
});

describe('next-link pagination', () => {
  const odataPage = z.object({
    value: z.array(item),
    '@odata.nextLink': z.string().optional(),
    '@odata.deltaLink': z.string().optional(),
  });
  const options = {
    path: '/odata/items',
    schema: odataPage,
    items: (page: z.output<typeof odataPage>) => page.value,
    nextLink: (page: z.output<typeof odataPage>) => page['@odata.nextLink'],
    request: { query: { $select: 'id' }, headers: { prefer: 'odata.maxpagesize=3' } },
  };

  beforeEach(() => {
    fake.route('GET', '/odata/items', (request) => {
      const skip = Number(request.query.get('$skiptoken') ?? 0);
      const size = Number(/maxpagesize=(\d+)/.exec(String(request.headers.prefer))?.[1] ?? 100);
      const end = skip + size;
      return {
        json: {
          value: fixture().slice(skip, end),
          ...(end < letters.length
            ? { '@odata.nextLink': `${request.origin}/odata/items?$skiptoken=${end}` }
            : { '@odata.deltaLink': `${request.origin}/odata/items?$deltatoken=done` }),
        },
      };
    });
  });

  it('follows the links in the body, sending the query once and the headers every time', async () => {
    const pages = await collect(paginateByNextLink(http, options));
    expect(ids(pages)).toEqual(letters);
    expect(pages.at(-1)?.body['@odata.deltaLink']).toBe(`${fake.url}/odata/items?$deltatoken=done`);
    expect(fake.requests.map((request) => request.search)).toEqual([
      '?%24select=id',
      '?$skiptoken=3',
      '?$skiptoken=6',
    ]);

    const resumed = await collect(paginateByNextLink(http, { ...options, startUrl: pages[0]!.next }));
    expect(ids(resumed)).toEqual(letters.slice(3));
  });

  it('refuses a link to another origin', async () => {
    fake.route('GET', '/odata/away', () => ({
      json: { value: [], '@odata.nextLink': 'https://elsewhere.example/odata/items' },
    }));
    await expect(collect(paginateByNextLink(http, { ...options, path: '/odata/away' }))).rejects.toThrow(
      FatalSourceError,
    );
  });
});
