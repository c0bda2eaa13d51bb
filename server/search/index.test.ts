import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/store';
import { createOrg } from '../testing/fixtures';
import { initSearch, searchScaleWarning, SQL_ENGINE_COMFORT_CHUNKS, upsertDocuments } from './index';

describe('initSearch', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('reports the engine and the largest org', async () => {
    expect(await initSearch(store)).toEqual({ engine: 'pg_textsearch', vectors: false, largestOrgChunks: 0 });
    for (const [domain, count] of [
      ['small.test', 2],
      ['large.test', 5],
    ] as const) {
      const org = await createOrg(store.db, { domain });
      const docs = Array.from({ length: count }, (_, i) => ({
        source: 'notion',
        externalId: `d${i}`,
        title: `Page ${i}`,
        body: 'A short page.',
        acl: ['org'],
      }));
      await upsertDocuments(store.db, org.id, docs);
    }
    expect((await initSearch(store)).largestOrgChunks).toBe(5);
  });

  it('warns the operator only when BM25 in SQL serves an org past its comfortable size', () => {
    const large = SQL_ENGINE_COMFORT_CHUNKS + 1;
    expect(searchScaleWarning({ engine: 'sql', vectors: false, largestOrgChunks: large })).toContain(
      'pg_textsearch',
    );
    expect(searchScaleWarning({ engine: 'sql', vectors: false, largestOrgChunks: 1000 })).toBeNull();
    expect(
      searchScaleWarning({ engine: 'pg_textsearch', vectors: false, largestOrgChunks: large }),
    ).toBeNull();
  });
});
