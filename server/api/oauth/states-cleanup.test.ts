import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOauthStates, jobs, type Org, type User } from '../../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../../db/store';
import { enqueueDueSchedules } from '../../jobs/schedule';
import { runWorker } from '../../jobs/worker';
import { createOrg, createUser } from '../../testing/fixtures';
import { OAUTH_STATES_CLEANUP_JOB, oauthStatesCleanupSchedule } from './states-cleanup';

let store: Store;
let org: Org;
let user: User;

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  org = await createOrg(store.db, { domain: 'oauth-states.test' });
  user = await createUser(store.db, org, { email: 'member@oauth-states.test' });
});
afterAll(() => store.close());

async function addState(name: string, expiresAt: Date) {
  await store.db.insert(appOauthStates).values({
    orgId: org.id,
    userId: user.id,
    appName: 'asana',
    stateHash: name,
    verifierEncrypted: 'sealed',
    isOrg: false,
    expiresAt,
  });
}

describe('OAuth state clean-up', () => {
  it('deletes expired connect states on its schedule and keeps the live ones', async () => {
    await addState('abandoned-yesterday', new Date(Date.now() - 86_400_000));
    await addState('abandoned-a-minute-ago', new Date(Date.now() - 60_000));
    await addState('in-progress', new Date(Date.now() + 600_000));

    expect(await enqueueDueSchedules(store.db, [oauthStatesCleanupSchedule])).toEqual([
      OAUTH_STATES_CLEANUP_JOB,
    ]);
    const worker = runWorker(store, pino({ level: 'silent' }), { idleMs: 10 });
    const job = () =>
      store.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, OAUTH_STATES_CLEANUP_JOB));
    try {
      for (let i = 0; i < 400 && (await job())[0]?.status !== 'done'; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      await worker.stop();
    }
    expect(await job()).toEqual([{ status: 'done' }]);
    const left = await store.db.select({ stateHash: appOauthStates.stateHash }).from(appOauthStates);
    expect(left).toEqual([{ stateHash: 'in-progress' }]);
  });
});
