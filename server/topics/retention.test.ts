import { eq, inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, messages, orgs, topics, type Org, type Topic } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { DAY_MS } from '../jobs/schedule';
import { enqueueJob } from '../jobs/queue';
import { runWorker } from '../jobs/worker';
import { createMessage, createTopic } from '../testing/chat-fixtures';
import { createOrg, createUser } from '../testing/fixtures';
import { CHAT_RETENTION_JOB } from './retention';

let store: Store;
const now = Date.now();
const daysAgo = (days: number) => new Date(now - days * DAY_MS);

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
});
afterAll(() => store.close());

async function orgWithRetention(domain: string, days: number | null): Promise<Org> {
  const org = await createOrg(store.db, { domain });
  await store.db.update(orgs).set({ chatRetentionDays: days }).where(eq(orgs.id, org.id));
  return org;
}

/** A topic started `startedDaysAgo` with one message then, and optionally a later message. */
async function topicIn(
  org: Org,
  title: string,
  startedDaysAgo: number,
  options: { lastMessageDaysAgo?: number; changedDaysAgo?: number } = {},
): Promise<Topic> {
  const author = await createUser(store.db, org, {
    email: `${title.toLowerCase().replace(/\W/g, '')}@${org.domain}`,
  });
  const topic = await createTopic(store.db, author, {
    topicTitle: title,
    createdAt: daysAgo(startedDaysAgo),
    updatedAt: daysAgo(options.changedDaysAgo ?? startedDaysAgo),
  });
  await createMessage(store.db, topic, { authorId: author.id, at: daysAgo(startedDaysAgo) });
  if (options.lastMessageDaysAgo !== undefined) {
    await createMessage(store.db, topic, { sender: 'ASSISTANT', at: daysAgo(options.lastMessageDaysAgo) });
  }
  return topic;
}

async function waitUntilDone(jobId: string): Promise<string | undefined> {
  for (let i = 0; i < 400; i++) {
    const [job] = await store.db.select().from(jobs).where(eq(jobs.id, jobId));
    if (job && job.status !== 'queued' && job.status !== 'running') return job.status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('job did not finish');
}

describe('the chat.retention job', () => {
  it('deletes, per org, only the topics idle for longer than the org’s retention, with their messages', async () => {
    const month = await orgWithRetention('month.test', 30);
    const week = await orgWithRetention('week.test', 7);
    const forever = await orgWithRetention('forever.test', null);

    const expired = await topicIn(month, 'Expired', 40);
    const revived = await topicIn(month, 'Revived', 40, { lastMessageDaysAgo: 1 });
    const renamed = await topicIn(month, 'Renamed', 40, { changedDaysAgo: 2 });
    const tenDaysMonth = await topicIn(month, 'Ten days', 10);
    const tenDaysWeek = await topicIn(week, 'Ten days', 10);
    const freshWeek = await topicIn(week, 'Fresh', 0);
    const ancient = await topicIn(forever, 'Ancient', 400);

    const jobId = await enqueueJob(store.db, { kind: CHAT_RETENTION_JOB });
    const worker = runWorker(store, pino({ level: 'silent' }), { idleMs: 10 });
    try {
      expect(await waitUntilDone(jobId)).toBe('done');
    } finally {
      await worker.stop();
    }

    const remaining = await store.db
      .select({ id: topics.id })
      .from(topics)
      .where(inArray(topics.orgId, [month.id, week.id, forever.id]));
    expect(remaining.map((t) => t.id).sort()).toEqual(
      [revived.id, renamed.id, tenDaysMonth.id, freshWeek.id, ancient.id].sort(),
    );
    const orphans = await store.db
      .select()
      .from(messages)
      .where(inArray(messages.topicId, [expired.id, tenDaysWeek.id]));
    expect(orphans).toEqual([]);
  });
});
