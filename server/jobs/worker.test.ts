import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { claimJob, enqueueJob } from './queue';
import { registerJobHandler, runWorker } from './worker';

let store: Store;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
});
afterAll(() => store.close());

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}

const jobRow = async (id: string) => (await store.db.select().from(jobs).where(eq(jobs.id, id)))[0];

describe('job queue', () => {
  it('runs a job once and marks it done', async () => {
    const seen: unknown[] = [];
    registerJobHandler('test.echo', async (job) => {
      seen.push(job.payload);
    });
    const id = await enqueueJob(store.db, { kind: 'test.echo', payload: { n: 1 } });
    const worker = runWorker(store, logger, { idleMs: 10 });
    const row = await waitFor(
      () => jobRow(id),
      (r) => r?.status === 'done',
    );
    await worker.stop();
    expect(seen).toEqual([{ n: 1 }]);
    expect(row?.attempts).toBe(1);
    expect(row?.finishedAt).toBeInstanceOf(Date);
  });

  it('retries a failing job later and records the error', async () => {
    registerJobHandler('test.fails', async () => {
      throw new Error('vendor said no');
    });
    const id = await enqueueJob(store.db, { kind: 'test.fails' });
    const worker = runWorker(store, logger, { idleMs: 10 });
    const row = await waitFor(
      () => jobRow(id),
      (r) => (r?.attempts ?? 0) >= 1 && r?.status === 'queued',
    );
    await worker.stop();
    expect(row?.lastError).toBe('vendor said no');
    expect(row!.runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('never hands the same job to two claimers, and takes back an expired lease', async () => {
    const id = await enqueueJob(store.db, { kind: 'test.lease' });
    const first = await claimJob(store.db, 'worker-a', ['test.lease'], 50);
    const second = await claimJob(store.db, 'worker-b', ['test.lease'], 50);
    expect(first?.id).toBe(id);
    expect(second).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 80));
    const reclaimed = await claimJob(store.db, 'worker-b', ['test.lease'], 60_000);
    expect(reclaimed?.id).toBe(id);
    expect(reclaimed?.lockedBy).toBe('worker-b');
    expect(reclaimed?.attempts).toBe(2);
  });

  it('leaves jobs that are not due yet', async () => {
    await enqueueJob(store.db, { kind: 'test.later', runAt: new Date(Date.now() + 60_000) });
    expect(await claimJob(store.db, 'worker-a', ['test.later'])).toBeNull();
  });

  it('runs quick jobs while every long slot is busy, and the long jobs side by side', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let runningLong = 0;
    let mostLong = 0;
    registerJobHandler('test.crawl', async () => {
      runningLong += 1;
      mostLong = Math.max(mostLong, runningLong);
      await released;
      runningLong -= 1;
    });
    registerJobHandler('test.upload', async () => {});
    const crawls = [
      await enqueueJob(store.db, { kind: 'test.crawl', lane: 'long' }),
      await enqueueJob(store.db, { kind: 'test.crawl', lane: 'long' }),
    ];
    const worker = runWorker(store, logger, { idleMs: 10, lanes: { quick: 1, long: 2 } });
    try {
      await waitFor(
        async () => mostLong,
        (most) => most === 2,
      );
      const upload = await enqueueJob(store.db, { kind: 'test.upload' });
      const uploaded = await waitFor(
        () => jobRow(upload),
        (r) => r?.status === 'done',
      );
      expect(uploaded?.status).toBe('done');
      for (const id of crawls) expect((await jobRow(id))?.status).toBe('running');
    } finally {
      release();
      await worker.stop();
    }
    for (const id of crawls) expect((await jobRow(id))?.status).toBe('done');
  });
});
