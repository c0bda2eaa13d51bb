import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../db/store';
import { upsertDocuments } from '../../search';
import { createOrg } from '../../testing/fixtures';
import { spellCorrect } from './spelling';

describe('spellCorrect', () => {
  let store: Store;
  const viewer = ['user:viewer@acme.test', 'org'];
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(async () => {
    await store?.close();
  });

  /** An org whose documents hold these words, each in `count` documents readable by `acl`. */
  async function orgWith(words: { word: string; count: number; acl: string[] }[]) {
    const org = await createOrg(store.db, { domain: `spelling-${words.map((w) => w.word).join('-')}.test` });
    await upsertDocuments(
      store.db,
      org.id,
      words.flatMap(({ word, count, acl }) =>
        Array.from({ length: count }, (_, i) => ({
          source: 'notion',
          externalId: `${word}-${i}`,
          title: `Note ${i}`,
          body: `The ${word} was seen again.`,
          acl,
        })),
      ),
    );
    const readable = sql`c.org_id = ${org.id}::uuid AND c.acl && ${sql.param(viewer)}::text[]`;
    return (q: string) => spellCorrect(store.db, org.id, readable, q);
  }

  it('suggests the closest readable word, even when a farther one is more common', async () => {
    const correct = await orgWith([
      { word: 'zorblat', count: 1, acl: ['org'] },
      { word: 'zorbxyt', count: 3, acl: ['org'] },
      { word: 'zorbit', count: 5, acl: ['user:other@acme.test'] },
    ]);
    expect(await correct('zorbat')).toBe('zorblat');
  });

  it('prefers the more readable of equally close words, never counting hidden documents', async () => {
    const correct = await orgWith([
      { word: 'zorblat', count: 1, acl: ['org'] },
      { word: 'zorbet', count: 3, acl: ['org'] },
      { word: 'zorbit', count: 5, acl: ['user:other@acme.test'] },
    ]);
    expect(await correct('zorbat')).toBe('zorbet');
  });

  it('never suggests a word only unreadable documents hold', async () => {
    const correct = await orgWith([{ word: 'zorbit', count: 5, acl: ['user:other@acme.test'] }]);
    expect(await correct('zorbat')).toBeNull();
  });
});
