// A worker process for the crash test (server/sync/crash.test.ts): the real job worker and sync engine, with the
// SDK's example connector registered, over DATA_DIR's embedded store or the database TEST_DATABASE_URL names (the test's own). It logs each
// committed batch as a JSON line on stdout (so the test knows when to kill it) and exits 0 once no job is left.
import { setTimeout as sleep } from 'node:timers/promises';
import { inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { notesConnector } from '../../../connectors/sdk/example';
import { jobs } from '../../db/schema';
import { openStore } from '../../db/store';
import { runWorker } from '../../jobs/worker';
import { registerConnector } from '../registry';
import '../jobs';

registerConnector(notesConnector);

const store = await openStore({
  databaseUrl: process.env.TEST_DATABASE_URL || null,
  dataDir: process.env.DATA_DIR,
});
const logger = pino({ level: 'debug' });
const worker = runWorker(store, logger, {
  idleMs: 25,
  // Short, so the next process reclaims the job of the one killed mid-sync within a second.
  leaseMs: Number(process.env.SCOUT_JOB_LEASE_MS ?? 1000),
});

for (;;) {
  await sleep(100);
  const live = await store.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running']))
    .limit(1);
  if (live.length === 0) break;
}
await worker.stop();
await store.close();
