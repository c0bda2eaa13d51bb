// Gmail survives being killed mid-sync: a full sync of a fixture mailbox from the fake Gmail API runs in the crash
// test's child worker process (the real job worker and engine, over the test's own store), which is SIGKILLed after
// some committed batches three times, then resumed to completion. The index must then hold exactly the mailbox's
// threads, each once, and the resumed runs must have continued from their page tokens.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus, SYNC_WINDOW_MS } from '../../common/connection-status';
import { startGmailFake, type GmailFake } from '../../connectors/gmail/fake';
import { crashSync } from './testing/crash-harness';

const THREADS = 60;
const PAGE_SIZE = 6;
const KILLS = 3;

let fake: GmailFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the mailbox's threads after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startGmailFake({ pageSize: PAGE_SIZE });
  for (let n = 0; n < THREADS; n += 1)
    fake.addMessage({
      id: `m-crash-${n}`,
      threadId: `t-crash-${String(n).padStart(3, '0')}`,
      from: 'Grace Hopper <grace@example.com>',
      to: fake.mailbox,
      subject: `Incident ${n}`,
      date: new Date(Date.now() - (n + 1) * 3_600_000),
      text: `Incident ${n}: the pager went off at ${n} past the hour.`,
    });
  const expected = [...fake.visibleThreads(new Date(Date.now() - SYNC_WINDOW_MS)).keys()].sort();

  const result = await crashSync({
    label: 'gmail-crash',
    appName: 'gmail',
    isOrg: false,
    ownerEmail: 'ada@example.com',
    config: { baseUrl: fake.server.url },
    // A token good for an hour: the worker syncs with it as stored.
    credentials: {
      access_token: fake.accessToken(),
      refresh_token: fake.refreshToken,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  const totalPages = Math.ceil(expected.length / PAGE_SIZE);
  expect(result.committedBeforeLastRun).toBeLessThan(totalPages);
  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  expect(result.documents.every((row) => row.acl.join() === 'user:ada@example.com')).toBe(true);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // Resumed from the committed page token each time: at most the in-flight page or two listed again per kill.
  const listings = fake.server.requests.filter((request) => request.path === '/gmail/v1/users/me/threads');
  expect(listings.length).toBeGreaterThanOrEqual(totalPages);
  expect(listings.length).toBeLessThanOrEqual(totalPages + KILLS * 2);
}, 300_000);
