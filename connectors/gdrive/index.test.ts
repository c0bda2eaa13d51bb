// The Drive connector against its fake: the conformance kit, what a file becomes, and who may read it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  TransientError,
  createConnectorContext,
  type SyncBatch,
} from '../sdk';
import { collect, runConnectorConformance } from '../sdk/testing';
import { seedAcmeDrive, startDriveFake, type DriveFake } from './fake';
import { gdriveConnector } from './index';

let fake: DriveFake;

beforeEach(async () => {
  fake = await startDriveFake({ pageSize: 2 });
  seedAcmeDrive(fake);
});
afterEach(async () => {
  await fake.close();
});

const context = (token = fake.token) =>
  createConnectorContext(gdriveConnector, {
    credentials: { access_token: token, refresh_token: 'refresh-1', expires_at: '2030-01-01T00:00:00Z' },
    config: { baseUrl: fake.server.url },
    random: () => 0,
  });

const documentsOf = (batches: SyncBatch[]) => batches.flatMap((batch) => batch.documents);

describe('gdriveConnector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(gdriveConnector, {
      fakeServer: fake.server,
      credentials: { access_token: fake.token, refresh_token: 'refresh-1' },
      config: { baseUrl: fake.server.url },
      changeSource: () => {
        fake.edit('d-roadmap', 'The falcon roadmap, revised.');
        fake.trash('t-notes');
        return { changed: ['d-roadmap'], deleted: ['t-notes'] };
      },
    });
    expect(report.resumedMidSync).toBe(true);
    expect(report.fullSync.documents).toBe(6);
    expect(report.groups).toBe(3);
  });

  it('exports Google files to text, reads text files, and indexes PDFs by title and folder path', async () => {
    const documents = documentsOf(await collect(gdriveConnector.fullSync(context())));
    const byId = new Map(documents.map((document) => [document.externalId, document]));
    expect([...byId.keys()].sort()).toEqual(
      ['d-pitch', 'd-roadmap', 'd-secret', 'p-handbook', 's-budget', 't-notes'].sort(),
    );
    expect(byId.get('d-roadmap')).toMatchObject({
      title: 'Falcon roadmap',
      body: 'The falcon roadmap: ship the quarterly plan.',
      fileType: 'gdoc',
      url: 'https://docs.google.com/document/d/d-roadmap/edit',
      author: { email: 'admin@acme.test' },
      extra: { path: '/My Drive/Engineering' },
    });
    expect(byId.get('s-budget')).toMatchObject({ body: 'item,cost\nfalcon servers,100', fileType: 'gsheet' });
    expect(byId.get('t-notes')).toMatchObject({ body: 'Falcon standup notes.', fileType: 'txt' });
    expect(byId.get('p-handbook')).toMatchObject({ body: '/My Drive', fileType: 'pdf' });
    expect(byId.get('d-pitch')).toMatchObject({ extra: { path: '/Sales', driveId: 'drive-sales' } });
  });

  it('mirrors Drive sharing: inherited folders, groups, the own domain, shared drive members; link-only grants nobody', async () => {
    const acl = new Map(
      documentsOf(await collect(gdriveConnector.fullSync(context()))).map((doc) => [doc.externalId, doc.acl]),
    );
    expect(acl.get('d-roadmap')).toEqual([
      'group:google:eng@acme.test',
      'user:admin@acme.test',
      'user:bob@acme.test',
    ]);
    expect(acl.get('s-budget')).toEqual(['org', 'user:admin@acme.test']);
    expect(acl.get('p-handbook')).toEqual(['user:admin@acme.test']);
    expect(acl.get('d-pitch')).toEqual(['group:google:sales@acme.test', 'user:carol@acme.test']);
    expect(acl.get('d-secret')).toEqual([]);
  });

  it('lists groups and their direct members, nested groups as groups, suspended people left out', async () => {
    const memberships = (await collect(gdriveConnector.permissions!(context()))).flat();
    expect(memberships).toEqual([
      {
        group: 'group:google:eng@acme.test',
        members: ['user:grace@acme.test', 'group:google:sre@acme.test'],
      },
      { group: 'group:google:sre@acme.test', members: ['user:linus@acme.test'] },
      { group: 'group:google:sales@acme.test', members: ['user:dave@acme.test'] },
    ]);
  });

  it('follows a move and a folder reshare through the change feed, paths and inherited readers included', async () => {
    const full = await collect(gdriveConnector.fullSync(context()));
    fake.move('d-roadmap', 'f-archive');
    fake.share('f-eng', [{ type: 'user', role: 'reader', emailAddress: 'erin@acme.test' }]);
    const changed = documentsOf(
      await collect(gdriveConnector.incrementalSync(context(), full.at(-1)!.cursor)),
    );
    const byId = new Map(changed.map((document) => [document.externalId, document]));
    expect(byId.get('d-roadmap')).toMatchObject({ extra: { path: '/My Drive/Archive' } });
    expect(byId.get('d-roadmap')?.acl).toEqual(['user:admin@acme.test', 'user:bob@acme.test']);
    expect(byId.get('t-notes')?.acl).toEqual(['user:admin@acme.test', 'user:erin@acme.test']);
  });

  it('answers the current readers of indexed files, leaving out the trashed and the gone', async () => {
    fake.share('d-roadmap', []);
    fake.trash('s-budget');
    const answers = await gdriveConnector.documentAcls!(context(), ['d-roadmap', 's-budget', 'nope']);
    expect(answers).toEqual([
      { externalId: 'd-roadmap', acl: ['group:google:eng@acme.test', 'user:admin@acme.test'] },
    ]);
  });

  it('waits out Drive’s 403 rateLimitExceeded and 429s, and reports a refused token or a non-admin', async () => {
    const throttled = {
      error: { code: 403, errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded' }] },
    };
    fake.server.failNext(2, { kind: 'status', status: 403, json: throttled });
    fake.server.failNext(2, { kind: 'rateLimit', retryAfter: 0 });
    expect(documentsOf(await collect(gdriveConnector.fullSync(context())))).toHaveLength(6);

    await expect(collect(gdriveConnector.fullSync(context('revoked')))).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    // A token that lapsed during a long sync: the job comes back, and the engine refreshes it first.
    const lapsed = createConnectorContext(gdriveConnector, {
      credentials: {
        access_token: 'ya29.lapsed',
        refresh_token: 'refresh-1',
        expires_at: '2020-01-01T00:00:00Z',
      },
      config: { baseUrl: fake.server.url },
      random: () => 0,
    });
    await expect(collect(gdriveConnector.fullSync(lapsed))).rejects.toBeInstanceOf(TransientError);
    fake.server.failNext(
      1,
      { kind: 'status', status: 403, json: { error: { code: 403, errors: [{ reason: 'forbidden' }] } } },
      { path: '/admin/directory/v1/groups' },
    );
    await expect(collect(gdriveConnector.permissions!(context()))).rejects.toBeInstanceOf(
      PermissionMismatchError,
    );
  });
});
