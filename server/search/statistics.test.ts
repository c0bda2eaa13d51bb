import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/store';
import { createOrg } from '../testing/fixtures';
import { principalsFor } from './acl';
import { upsertDocuments, type IndexDocument } from './indexer';
import { MIN_SHARED_CHUNKS, rankingStatistics } from './statistics';

let store: Store;
let orgs = 0;
beforeAll(async () => {
  store = await openStore({ memory: true });
});
afterAll(async () => {
  await store?.close();
});

const doc = (externalId: string, body: string, acl: string[]): IndexDocument => ({
  source: 'custom',
  externalId,
  title: 'note',
  body,
  acl,
});

async function orgWith(docs: IndexDocument[]) {
  const org = await createOrg(store.db, { domain: `statistics-${++orgs}.example.com` });
  for (let i = 0; i < docs.length; i += 500) await upsertDocuments(store.db, org.id, docs.slice(i, i + 500));
  const member = await principalsFor(store.db, org.id, 'member@example.com');
  return (lexemes: string[]) =>
    store.db.transaction(async (tx) => {
      const statistics = await rankingStatistics(tx, org.id, member);
      return { collection: statistics.collection, docFreqs: await statistics.docFreqs(lexemes) };
    });
}

const hidden = (n: number) =>
  Array.from({ length: n }, (_, i) => doc(`hidden-${i}`, 'refund refund audit', ['user:admin@example.com']));

describe('ranking statistics', () => {
  it('count what the viewer reads while the org shares little', async () => {
    const read = await orgWith([
      doc('shared', 'refund policy', ['org']),
      doc('mine', 'refund laptop', ['user:member@example.com']),
      doc('theirs', 'laptop', ['user:other@example.com']),
      ...hidden(40),
    ]);
    const { collection, docFreqs } = await read(['refund', 'laptop', 'audit']);
    expect(collection.chunkCount).toBe(2);
    expect(docFreqs).toEqual(
      new Map([
        ['refund', 2],
        ['laptop', 1],
      ]),
    );
  });

  it('give a small org member who reads only what is shared the shared counts, nothing hidden in them', async () => {
    const read = await orgWith([
      doc('policy', 'refund policy', ['org']),
      doc('handbook', 'refund refund travel', ['org']),
      doc('theirs', 'laptop audit', ['user:other@example.com']),
      ...hidden(40),
    ]);
    const { collection, docFreqs } = await read(['refund', 'travel', 'laptop', 'audit']);
    expect(collection.chunkCount).toBe(2);
    expect(docFreqs).toEqual(
      new Map([
        ['refund', 2],
        ['travel', 1],
      ]),
    );
  });

  it('count only the chunks every member reads once the org shares enough, whatever is hidden', async () => {
    const shared = Array.from({ length: MIN_SHARED_CHUNKS }, (_, i) =>
      doc(`shared-${i}`, i % 4 === 0 ? 'refund policy' : 'travel policy', ['org']),
    );
    const read = await orgWith([
      ...shared,
      doc('mine', 'refund laptop', ['user:member@example.com']),
      ...hidden(40),
    ]);
    const { collection, docFreqs } = await read(['refund', 'laptop', 'audit', 'polici']);
    expect(collection.chunkCount).toBe(MIN_SHARED_CHUNKS);
    expect(docFreqs).toEqual(
      new Map([
        ['refund', MIN_SHARED_CHUNKS / 4],
        ['polici', MIN_SHARED_CHUNKS],
      ]),
    );
  });
});
