import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat as chatStrings } from '../common/strings';
import { jobCursors, jobs, messages } from './db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from './db/store';
import { leaseHolder } from './jobs/processes';
import { claimJob, enqueueJob } from './jobs/queue';
import { createLogger } from './logger';
import { openServerTestStore, testDatabaseUrl } from './testing/database';
import { listeningNotice, startCrashRecovery } from './serve';
import { createMessage, createTopic } from './testing/chat-fixtures';
import { createOrg, createUser } from './testing/fixtures';

describe('the start-up line', () => {
  it('warns that Scout is reachable from other machines when it listens on every interface', () => {
    for (const address of ['0.0.0.0', '::']) {
      const notice = listeningNotice({ address, family: 'IPv4', port: 3000 });
      expect(notice.level).toBe('warn');
      expect(notice.message).toContain('port 3000');
      expect(notice.message).toContain('reachable from other machines');
      expect(notice.message).toContain('HOST=127.0.0.1');
    }
  });

  it('says the loopback address it listens on, without a warning', () => {
    expect(listeningNotice({ address: '127.0.0.1', family: 'IPv4', port: 4123 })).toEqual({
      level: 'info',
      message: 'Scout is ready at http://127.0.0.1:4123',
    });
    expect(listeningNotice({ address: '::1', family: 'IPv6', port: 4123 }).message).toBe(
      'Scout is ready at http://[::1]:4123',
    );
  });
});

/** The pid of a process that has exited: its rows outlive it, as after a crash. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const SYNC_KIND = 'test.recovery.sync';
const MINUTE = 60_000;

function crashRecoverySuite(
  kind: 'embedded' | 'server',
  open: () => Promise<{ store: Store; drop(): Promise<void> }>,
) {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await open());
  });
  afterAll(() => drop?.());

  it('a new process releases the dead one’s sync lease at once and fails its orphan answer', async () => {
    const db = store.db;
    const dead = `${hostname()}:${await deadPid()}:deadbeef`;
    const now = Date.now();
    // the crashed process had beaten its heartbeat just before it died
    await db.insert(jobCursors).values({ key: `process:${dead}`, lastRunAt: new Date(now) });
    const jobId = await enqueueJob(db, { kind: SYNC_KIND });
    expect((await claimJob(db, leaseHolder(1, dead), [SYNC_KIND], 5 * MINUTE))?.id).toBe(jobId);
    expect(await claimJob(db, 'someone-else', [SYNC_KIND])).toBeNull();

    const org = await createOrg(db, { domain: `recovery-${kind}.test` });
    const alice = await createUser(db, org, { email: `alice@recovery-${kind}.test` });
    const topic = await createTopic(db, alice);
    // on a server the answer's keepalive stopped when its process died; embedded, the next process is the only one
    const lastTouched = new Date(kind === 'server' ? now - 2 * MINUTE : now);
    const question = await createMessage(db, topic, {
      status: 'PENDING',
      authorId: alice.id,
      at: lastTouched,
    });
    const answer = await createMessage(db, topic, {
      sender: 'ASSISTANT',
      replyToId: question.id,
      status: 'PENDING',
      messageText: 'Half an ans',
      at: lastTouched,
    });

    const recovery = await startCrashRecovery(store, createLogger('silent'));
    try {
      const claimed = await claimJob(db, 'next-worker', [SYNC_KIND]);
      expect(claimed?.id).toBe(jobId);
      const [saved] = await db.select().from(messages).where(eq(messages.id, answer.id));
      expect(saved).toMatchObject({ status: 'FAILED', messageText: chatStrings.GENERATION_FAILED });
      expect(saved?.extraData).toMatchObject({ staticAnswerType: 'failed' });
      const [asked] = await db.select().from(messages).where(eq(messages.id, question.id));
      expect(asked?.status).toBe('FAILED');
      expect(
        await db
          .select()
          .from(jobCursors)
          .where(eq(jobCursors.key, `process:${dead}`)),
      ).toEqual([]);
    } finally {
      await recovery.stop();
    }
  });

  it.runIf(kind === 'server')(
    'leaves the leases and live answers of other instances alone, and takes back a silent instance’s',
    async () => {
      const db = store.db;
      const alive = 'other-host:41:a11ve000';
      const silent = 'other-host:42:5113e700';
      const now = Date.now();
      await db.insert(jobCursors).values([
        { key: `process:${alive}`, lastRunAt: new Date(now - 5_000) },
        { key: `process:${silent}`, lastRunAt: new Date(now - 3 * MINUTE) },
      ]);
      const aliveJob = await enqueueJob(db, { kind: 'test.recovery.alive' });
      const silentJob = await enqueueJob(db, { kind: 'test.recovery.silent' });
      await claimJob(db, leaseHolder(1, alive), ['test.recovery.alive'], 5 * MINUTE);
      await claimJob(db, leaseHolder(1, silent), ['test.recovery.silent'], 5 * MINUTE);
      const org = await createOrg(db, { domain: 'recovery-live.test' });
      const bob = await createUser(db, org, { email: 'bob@recovery-live.test' });
      const topic = await createTopic(db, bob);
      const question = await createMessage(db, topic, { status: 'PENDING', authorId: bob.id });
      const live = await createMessage(db, topic, {
        sender: 'ASSISTANT',
        replyToId: question.id,
        status: 'PENDING',
      });

      const recovery = await startCrashRecovery(store, createLogger('silent'));
      try {
        const [aliveRow] = await db.select().from(jobs).where(eq(jobs.id, aliveJob));
        expect(aliveRow).toMatchObject({ status: 'running', lockedBy: leaseHolder(1, alive) });
        expect((await claimJob(db, 'next-worker', ['test.recovery.silent']))?.id).toBe(silentJob);
        const [liveRow] = await db.select().from(messages).where(eq(messages.id, live.id));
        expect(liveRow?.status).toBe('PENDING');
      } finally {
        await recovery.stop();
      }
    },
  );
}

describe('crash recovery: embedded PGlite', () => {
  crashRecoverySuite('embedded', async () => {
    const store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
    return { store, drop: () => store.close() };
  });
});

describe.skipIf(!testDatabaseUrl)('crash recovery: PostgreSQL server (TEST_DATABASE_URL)', () => {
  crashRecoverySuite('server', () => openServerTestStore('recovery'));
});
