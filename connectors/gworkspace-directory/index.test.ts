// The directory connector against its fake: the conformance kit, what a person becomes, and groups.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionMismatchError, createConnectorContext, type SyncBatch } from '../sdk';
import { collect, runConnectorConformance } from '../sdk/testing';
import { seedAcmeDirectory, startDirectoryFake, type WorkspaceDirectoryFake } from './fake';
import { gworkspaceDirectoryConnector } from './index';

let fake: WorkspaceDirectoryFake;

beforeEach(async () => {
  fake = await startDirectoryFake({ pageSize: 2 });
  seedAcmeDirectory(fake);
});
afterEach(async () => {
  await fake.close();
});

const context = () =>
  createConnectorContext(gworkspaceDirectoryConnector, {
    credentials: { access_token: fake.token },
    config: { baseUrl: fake.server.url },
    random: () => 0,
  });
const documentsOf = (batches: SyncBatch[]) => batches.flatMap((batch) => batch.documents);

describe('gworkspaceDirectoryConnector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(gworkspaceDirectoryConnector, {
      fakeServer: fake.server,
      credentials: { access_token: fake.token },
      config: { baseUrl: fake.server.url },
      changeSource: () => {
        fake.putUser({
          id: 'u-linus',
          primaryEmail: 'linus@acme.test',
          name: { fullName: 'Linus Torvalds' },
          organizations: [{ title: 'Kernel lead', primary: true }],
        });
        fake.removeUser('grace@acme.test');
        return { changed: ['u-linus'], deleted: ['u-grace'] };
      },
    });
    expect(report.resumedMidSync).toBe(true);
    expect(report.fullSync.documents).toBe(3);
    expect(report.groups).toBe(2);
  });

  it('makes each listed person an org-readable contact with title, department, location and manager', async () => {
    const people = documentsOf(await collect(gworkspaceDirectoryConnector.fullSync(context())));
    expect(people.map((person) => person.externalId).sort()).toEqual(['u-ada', 'u-grace', 'u-linus']);
    expect(people.find((person) => person.externalId === 'u-grace')).toMatchObject({
      title: 'Grace Hopper',
      objectType: 'Contacts',
      acl: ['org'],
      body: [
        'Name: Grace Hopper',
        'Email: grace@acme.test',
        'Title: Staff engineer',
        'Department: Engineering',
        'Location: New York',
        'Manager: Ada Lovelace',
      ].join('\n'),
      extra: { email: 'grace@acme.test', manager: 'Ada Lovelace', location: 'New York' },
    });
  });

  it('lists groups with nested groups as members', async () => {
    const memberships = (await collect(gworkspaceDirectoryConnector.permissions!(context()))).flat();
    expect(memberships).toEqual([
      {
        group: 'group:google:eng@acme.test',
        members: ['user:grace@acme.test', 'group:google:sre@acme.test'],
      },
      { group: 'group:google:sre@acme.test', members: ['user:linus@acme.test'] },
    ]);
  });

  it('refuses an account that is not a Workspace admin', async () => {
    fake.server.failNext(1, {
      kind: 'status',
      status: 403,
      json: {
        error: {
          code: 403,
          message: 'Not Authorized to access this resource/api',
          errors: [{ reason: 'forbidden' }],
        },
      },
    });
    await expect(gworkspaceDirectoryConnector.validate(context())).rejects.toBeInstanceOf(
      PermissionMismatchError,
    );
  });
});
