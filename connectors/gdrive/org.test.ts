// Drive's org connection against the Workspace fake: the conformance kit (a pass resumed from its first cursor
// delivers the rest, pruning lists every file, a quiet feed delivers nothing), and a file shared between members
// arriving once with its own readers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectorContext, type SyncBatch } from '../sdk';
import { collect, runConnectorConformance } from '../sdk/testing';
import { DOC_MIME, FOLDER_MIME, startDriveFake, type DriveFake } from './fake';
import { gdriveConnector } from './index';
import { DRIVE_ORG_SCOPES, DRIVE_READONLY_SCOPE } from './org';

const ADMIN = 'bob@example.com';
let fake: DriveFake;

beforeEach(async () => {
  fake = await startDriveFake({ pageSize: 2, workspace: { admin: ADMIN, driveScope: DRIVE_READONLY_SCOPE } });
  for (const email of [ADMIN, 'ada@example.com']) fake.putUser({ primaryEmail: email, suspended: false });
  fake.account!.grant(DRIVE_ORG_SCOPES);
  vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(fake.account!.key));
  const doc = (
    id: string,
    owner: string,
    permissions: Parameters<DriveFake['addFile']>[0]['permissions'] = [],
  ) =>
    fake.addFile({ id, name: `Doc ${id}`, mimeType: DOC_MIME, owner, content: `text of ${id}`, permissions });
  doc('a-1', 'ada@example.com', [{ type: 'user', role: 'reader', emailAddress: ADMIN }]);
  doc('a-2', 'ada@example.com');
  doc('a-3', 'ada@example.com', [{ type: 'user', role: 'writer', emailAddress: ADMIN }]);
  doc('b-1', ADMIN, [{ type: 'user', role: 'reader', emailAddress: 'ada@example.com' }]);
  fake.addDrive('drive-ops', 'Ops', [{ type: 'user', role: 'organizer', emailAddress: 'ada@example.com' }]);
  fake.addFile({
    id: 'd-1',
    name: 'Runbook',
    mimeType: DOC_MIME,
    parent: 'drive-ops',
    driveId: 'drive-ops',
    content: 'the runbook',
  });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
});

const credentials = { email: ADMIN, marketplace: true };
const context = () =>
  createConnectorContext(gdriveConnector, {
    credentials,
    config: { baseUrl: fake.server.url },
    random: () => 0,
  });

describe('gdriveConnector, connected org-wide', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(gdriveConnector, {
      fakeServer: fake.server,
      credentials,
      invalidCredentials: { email: 'mallory@example.com', marketplace: true },
      config: { baseUrl: fake.server.url },
      changeSource: () => {
        fake.edit('a-2', 'text of a-2, revised');
        fake.remove('b-1');
        return { changed: ['a-2'], deleted: ['b-1'] };
      },
    });
    expect(report.resumedMidSync).toBe(true);
    expect(report.fullSync.documents).toBe(5);
    expect(report.incremental).toEqual({ documents: 1, deleted: 1 });
  });

  it('yields a file once, from its owner’s view, whoever else holds it', async () => {
    const documents = (await collect(gdriveConnector.fullSync(context()))).flatMap(
      (batch: SyncBatch) => batch.documents,
    );
    expect(documents.map((document) => document.externalId).sort()).toEqual([
      'a-1',
      'a-2',
      'a-3',
      'b-1',
      'd-1',
    ]);
    const acl = new Map(documents.map((document) => [document.externalId, document.acl]));
    expect(acl.get('a-1')).toEqual(['user:ada@example.com', 'user:bob@example.com']);
    expect(acl.get('a-2')).toEqual(['user:ada@example.com']);
    expect(acl.get('d-1')).toEqual(['user:ada@example.com']);
  });

  it('re-reads the files under a folder reshared to another member, with the folder’s new readers', async () => {
    fake.addFile({ id: 'f-team', name: 'Team', mimeType: FOLDER_MIME, owner: 'ada@example.com' });
    fake.addFile({
      id: 'a-4',
      name: 'Doc a-4',
      mimeType: DOC_MIME,
      parent: 'f-team',
      owner: 'ada@example.com',
      content: 'text of a-4',
    });
    const full = await collect(gdriveConnector.fullSync(context()));
    fake.share('f-team', [{ type: 'user', role: 'reader', emailAddress: ADMIN }]);
    const changed = (await collect(gdriveConnector.incrementalSync(context(), full.at(-1)!.cursor))).flatMap(
      (batch: SyncBatch) => batch.documents,
    );
    expect(changed.map((document) => [document.externalId, document.acl])).toContainEqual([
      'a-4',
      ['user:ada@example.com', 'user:bob@example.com'],
    ]);
    expect(changed.every((document) => document.externalId === 'a-4')).toBe(true);
  });

  it('answers the permission sync with each file’s readers as its owner reads them, leaving out the deleted', async () => {
    fake.share('a-3', []);
    fake.remove('b-1');
    expect(await gdriveConnector.documentAcls!(context(), ['a-3', 'b-1', 'd-1'])).toEqual([
      { externalId: 'a-3', acl: ['user:ada@example.com'] },
      { externalId: 'd-1', acl: ['user:ada@example.com'] },
    ]);
  });
});
