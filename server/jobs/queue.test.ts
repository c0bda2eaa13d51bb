// The claim query's lanes and exclusive keys, on embedded PGlite and, with TEST_DATABASE_URL, on a PostgreSQL
// server, where several connections really race (PGlite has one).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema';
import { newId } from '../db/ids';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';
import { claimJob, completeJob, enqueueJob } from './queue';

const stores: { name: string; open: () => Promise<{ store: Store; drop: () => Promise<void> }> }[] = [
  {
    name: 'embedded PGlite',
    open: async () => {
      const store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
      return { store, drop: () => store.close() };
    },
  },
  ...(testDatabaseUrl
    ? [{ name: 'PostgreSQL server (TEST_DATABASE_URL)', open: () => openServerTestStore('queue') }]
    : []),
];

describe.each(stores)('the job queue on $name', ({ open }) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await open());
  });
  afterAll(() => drop());

  // A kind of its own per test, so one test's jobs never answer another's claim.
  const uniqueKind = (name: string) => `test.${name}.${newId()}`;

  it('hands a lane only its own jobs', async () => {
    const kind = uniqueKind('lanes');
    const quick = await enqueueJob(store.db, { kind, lane: 'quick' });
    const long = await enqueueJob(store.db, { kind, lane: 'long' });
    expect((await claimJob(store.db, 'w-long', [kind], 60_000, 'long'))?.id).toBe(long);
    expect(await claimJob(store.db, 'w-long', [kind], 60_000, 'long')).toBeNull();
    expect((await claimJob(store.db, 'w-quick', [kind], 60_000, 'quick'))?.id).toBe(quick);
  });

  it('runs one job of an exclusive key at a time, the next once the first is done', async () => {
    const kind = uniqueKind('exclusive');
    const exclusiveKey = `connection:${newId()}`;
    const first = await enqueueJob(store.db, { kind, exclusiveKey, runAt: new Date(Date.now() - 1000) });
    const second = await enqueueJob(store.db, { kind, exclusiveKey });
    const other = await enqueueJob(store.db, { kind, exclusiveKey: `connection:${newId()}` });
    const running = await claimJob(store.db, 'w-1', [kind]);
    expect(running?.id).toBe(first);
    // The second waits; a job of another key does not.
    expect((await claimJob(store.db, 'w-2', [kind]))?.id).toBe(other);
    expect(await claimJob(store.db, 'w-2', [kind])).toBeNull();
    await completeJob(store.db, running!, 'w-1');
    expect((await claimJob(store.db, 'w-2', [kind]))?.id).toBe(second);
  });

  it("takes over an expired lease of another process, never a sibling slot's of its own", async () => {
    const kind = uniqueKind('lease');
    const id = await enqueueJob(store.db, { kind });
    expect((await claimJob(store.db, 'process-a#1', [kind], 20))?.id).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await claimJob(store.db, 'process-a#2', [kind])).toBeNull();
    expect((await claimJob(store.db, 'process-b#1', [kind]))?.lockedBy).toBe('process-b#1');
  });

  it('never runs two jobs of one exclusive key when many claimers race', async () => {
    const kind = uniqueKind('race');
    const exclusiveKey = `connection:${newId()}`;
    for (let n = 0; n < 6; n++) await enqueueJob(store.db, { kind, exclusiveKey });
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, n) => claimJob(store.db, `racer-${n}`, [kind])),
    );
    expect(claims.filter((job) => job !== null)).toHaveLength(1);
    const running = await store.db.select().from(jobs).where(eq(jobs.kind, kind));
    expect(running.filter((job) => job.status === 'running')).toHaveLength(1);
  });
});
