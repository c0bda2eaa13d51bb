// Google Drive survives being killed mid-sync: the Acme drive fake (connectors/gdrive/fake.ts) with a dozen more
// files stays up in this process while the real job worker syncs a member's Drive in a child process that is
// SIGKILLed twice after some committed batches (server/sync/testing/crash-harness.ts). The index must end up
// holding exactly the files in scope, each the member's own (an individual connection's documents are its owner's
// only), and the resumed runs must have gone on from the listing's page token rather than listed and read the drive
// from the start again.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { seedAcmeDrive, startDriveFake, type DriveFake } from '../../connectors/gdrive/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_FILES = 12;
const PAGE_SIZE = 2;
const KILLS = 2;

let fake: DriveFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the drive's files in scope after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startDriveFake({ pageSize: PAGE_SIZE });
  seedAcmeDrive(fake);
  // Inside the sync window (not the 2019 retro); the member's own, so even the file whose sharing is hidden.
  const expected = ['d-pitch', 'd-roadmap', 'd-secret', 'p-handbook', 's-budget', 't-notes'];
  for (let n = 0; n < MORE_FILES; n++) {
    const id = `t-log-${String(n).padStart(2, '0')}`;
    fake.addFile({
      id,
      name: `falcon-log-${n}.txt`,
      mimeType: 'text/plain',
      parent: 'f-eng',
      content: `Falcon log ${n}.`,
    });
    expected.push(id);
  }
  expected.sort();

  const result = await crashSync({
    label: 'gdrive-crash',
    appName: 'gdrive',
    isOrg: false,
    ownerEmail: 'admin@acme.test',
    config: { baseUrl: fake.server.url },
    credentials: {
      access_token: fake.token,
      refresh_token: 'refresh-1',
      token_type: 'Bearer',
      expires_at: '2099-01-01T00:00:00.000Z',
    },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  expect(result.documents.every((row) => row.acl.join() === 'user:admin@acme.test')).toBe(true);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);

  const requests = fake.server.requests;
  // The listing's first page (no page token) was read by the first worker alone: the others resumed past it.
  const firstPages = requests.filter(
    (request) => request.path === '/drive/v3/files' && !request.search.includes('pageToken='),
  );
  expect(firstPages).toHaveLength(1);
  // A file's text is read twice at most, when a kill struck while it was in hand.
  const reads = requests.filter(
    (request) =>
      /^\/drive\/v3\/files\/[^/]+\/export$/.test(request.path) ||
      (/^\/drive\/v3\/files\/[^/]+$/.test(request.path) && request.search.includes('alt=media')),
  );
  expect(reads.length).toBeGreaterThanOrEqual(MORE_FILES);
  expect(mostRequestsOfOne(reads, (request) => request.path)).toBeLessThanOrEqual(2);
}, 300_000);
