// The Slack connector survives being killed mid-sync: its fake workspace stays up in this process while the real
// job worker (server/sync/testing/worker-entry.ts, which has every shipped connector registered) syncs it in a
// child process that is SIGKILLed twice after some batches are committed. The index must end up holding exactly
// the fixture, and the resumed runs must not have read the channels from the start again.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { startSlackFake, type SlackFake } from '../../connectors/slack/fake';
import { ADMIN, GUEST, MEMBER, credentialsFor, seedWorkspace } from '../../connectors/slack/fixture';
import { crashSync } from './testing/crash-harness';

const PAGE_SIZE = 4;
const MORE_MESSAGES = 16;
const KILLS = 2;
/** Each worker process loads the whole server before its first batch: tens of seconds on a busy machine. */
const TIMEOUT_MS = 300_000;

let fake: SlackFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(
  `indexes exactly the fixture workspace after ${KILLS} SIGKILLs mid-sync`,
  async () => {
    fake = await startSlackFake({ pageSize: PAGE_SIZE });
    const fixture = seedWorkspace(fake);
    const expected = [
      `${fixture.general}/${fixture.ts.hello}`,
      `${fixture.general}/${fixture.ts.question}`,
      `${fixture.general}/${fixture.ts.old}`,
      `${fixture.eng}/${fixture.ts.spec}`,
      `${fixture.eng}/${fixture.ts.spec}/${fixture.specFileId}`,
      `${fixture.eng}/${fixture.ts.design}`,
    ];
    for (let n = 0; n < MORE_MESSAGES; n++) {
      const general = fake.post(fixture.general, {
        user: MEMBER,
        text: `Status ${n}`,
        ageSeconds: 10 * 86_400 + n,
      });
      const eng = fake.post(fixture.eng, {
        user: n % 2 ? ADMIN : GUEST,
        text: `Build ${n}`,
        ageSeconds: 86_400 + n,
      });
      expected.push(`${fixture.general}/${general.ts}`, `${fixture.eng}/${eng.ts}`);
    }

    const result = await crashSync({
      label: 'slack-crash',
      appName: 'slack',
      isOrg: true,
      ownerEmail: `admin@slack-crash-${Date.now()}.test`,
      config: { baseUrl: fake.apiUrl },
      credentials: credentialsFor(fake),
      kills: KILLS,
      batchesBeforeKill: [2, 3],
    });

    expect(result.documents.map((row) => row.externalId)).toEqual(expected.sort());
    expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
    // Resumed from the committed cursor: a channel's first page (no cursor) is read once per channel, plus at
    // most one more per kill that struck while that page was in hand.
    const firstPages = fake.server.requests.filter(
      (request) => request.path === '/api/conversations.history' && !request.body.includes('cursor='),
    ).length;
    expect(firstPages).toBeLessThanOrEqual(2 + KILLS);
  },
  TIMEOUT_MS,
);
