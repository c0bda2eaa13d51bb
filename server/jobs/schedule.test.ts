import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { DAY_MS, enqueueDueSchedules, runScheduler, type Schedule } from './schedule';

let store: Store;

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
});
afterAll(() => store.close());

const jobsOf = (kind: string) => store.db.select().from(jobs).where(eq(jobs.kind, kind));

describe('schedules', () => {
  it('enqueue a schedule’s job once per period, and never beside a live one', async () => {
    const daily: Schedule = { kind: 'test.daily', everyMs: DAY_MS };
    const start = new Date('2030-01-01T00:00:00Z');
    const later = (ms: number) => new Date(start.getTime() + ms);

    expect(await enqueueDueSchedules(store.db, [daily], start)).toEqual(['test.daily']);
    expect(await enqueueDueSchedules(store.db, [daily], later(60_000))).toEqual([]);
    expect(await jobsOf('test.daily')).toHaveLength(1);

    // a day on, yesterday's job has not run yet: no second one
    expect(await enqueueDueSchedules(store.db, [daily], later(DAY_MS))).toEqual([]);
    expect(await jobsOf('test.daily')).toHaveLength(1);

    // once it is done, the next period enqueues again
    await store.db.update(jobs).set({ status: 'done' }).where(eq(jobs.kind, 'test.daily'));
    expect(await enqueueDueSchedules(store.db, [daily], later(DAY_MS + 60_000))).toEqual([]);
    expect(await enqueueDueSchedules(store.db, [daily], later(2 * DAY_MS))).toEqual(['test.daily']);
    expect(await jobsOf('test.daily')).toHaveLength(2);
  });

  it('let one of several ticking processes through per period', async () => {
    const hourly: Schedule = { kind: 'test.hourly', everyMs: 60 * 60_000 };
    const at = new Date('2030-06-01T00:00:00Z');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => enqueueDueSchedules(store.db, [hourly], at)),
    );
    expect(results.flat()).toEqual(['test.hourly']);
    expect(await jobsOf('test.hourly')).toHaveLength(1);
  });

  it('tick from the scheduler loop until stopped', async () => {
    const scheduler = runScheduler(
      store,
      pino({ level: 'silent' }),
      [{ kind: 'test.loop', everyMs: DAY_MS }],
      {
        tickMs: 10,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await scheduler.stop();
    expect(await jobsOf('test.loop')).toHaveLength(1);
  });
});
