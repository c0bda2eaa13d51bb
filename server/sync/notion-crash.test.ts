// Notion survives being killed mid-sync: the fake workspace (connectors/notion/fake.ts) with a dozen more pages
// edited in the same minute stays up in this process while the real job worker syncs it in a child process that
// is SIGKILLed twice after some committed batches (server/sync/testing/crash-harness.ts). The index must end up
// holding exactly what the integration can reach, readable by the workspace's members, and the resumed runs must
// have skipped what was committed rather than fetched it again.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { blocks, startNotionFake, type NotionFake } from '../../connectors/notion/fake';
import { crashSync } from './testing/crash-harness';

const MORE_PAGES = 12;
const KILLS = 2;

let fake: NotionFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the pages shared with the integration after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startNotionFake();
  // Shared with the integration and inside the window; 'old' (four years) and 'salaries' (never shared) are not.
  const keys = ['handbook', 'oncall', 'tasks', 'task-search', 'task-sync', 'press'];
  for (let n = 0; n < MORE_PAGES; n++) {
    const key = `release-${n}`;
    // Under the press kit, which the integration reaches, all in one minute: resuming must tell them apart by id.
    fake.upsertPage({
      key,
      title: `Release note ${n}`,
      parent: { page: 'press' },
      blocks: [blocks.paragraph(`Release ${n} ships on day ${n}.`)],
    });
    keys.push(key);
  }
  const notion = fake;
  const expected = keys.map((key) => notion.idOf(key)).sort();

  const result = await crashSync({
    label: 'notion-crash',
    appName: 'notion',
    isOrg: true,
    ownerEmail: 'ada@example.com',
    config: { baseUrl: fake.url, batchSize: 2, pageSize: 5 },
    credentials: { access_token: fake.token },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  const members = `group:notion:${result.connectionId}:members`;
  const readersOf = (key: string) => result.documents.find((row) => row.externalId === notion.idOf(key))?.acl;
  expect(readersOf('press')).toEqual([members]);
  expect(readersOf('release-7')).toEqual([members]);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // Search is walked again on each resume, but a page committed before a kill has its blocks fetched no more. The
  // first worker committed at least its first batch, so the second must not fetch the page the first fetched
  // first; started over, it would fetch it first too. (Counting fetches proves nothing here: the walk that follows
  // a resumed one fetches the newest minute's pages, these release notes, again to compare fingerprints.)
  const fetches = fake.server.requests.filter((request) => {
    const page = /^\/v1\/blocks\/([^/]+)\/children$/.exec(request.path)?.[1];
    return page !== undefined && expected.includes(page);
  });
  expect(new Set(fetches.map((request) => request.path)).size).toBe(MORE_PAGES + 5);
  const [firstKill = 0, secondKill = 0] = result.killedAt;
  const secondWorker = fetches.filter(
    (request) => request.receivedAt > firstKill && request.receivedAt < secondKill,
  );
  expect(secondWorker.length).toBeGreaterThan(0);
  expect(secondWorker.map((request) => request.path)).not.toContain(fetches[0]?.path);
}, 300_000);
