// A Google Workspace directory on 127.0.0.1 (the shared Directory fake behind a bearer check), seeded with Acme's
// people and groups.
import { serveDirectory, type DirectoryFake } from '../google/fake';
import { startFakeServer, type FakeServer } from '../sdk/fake-server';

export interface WorkspaceDirectoryFake extends DirectoryFake {
  readonly server: FakeServer;
  readonly token: string;
  close(): Promise<void>;
}

export async function startDirectoryFake(
  options: { pageSize?: number } = {},
): Promise<WorkspaceDirectoryFake> {
  const token = 'ya29.fake-directory-token';
  const server = await startFakeServer({ bearerToken: token });
  const directory = serveDirectory(server, options.pageSize);
  return { ...directory, server, token, close: () => server.close() };
}

/** Acme: a manager and two reports, a suspended account, one hidden from the address list, and two groups. */
export function seedAcmeDirectory(fake: DirectoryFake): void {
  const person = (id: string, email: string, fullName: string, extra: object = {}) =>
    fake.putUser({
      id,
      primaryEmail: email,
      name: { fullName },
      creationTime: '2024-02-01T09:00:00.000Z',
      ...extra,
    });
  person('u-ada', 'ada@acme.test', 'Ada Lovelace', {
    organizations: [{ title: 'CTO', department: 'Engineering', location: 'London', primary: true }],
  });
  person('u-grace', 'grace@acme.test', 'Grace Hopper', {
    organizations: [{ title: 'Staff engineer', department: 'Engineering', primary: true }],
    locations: [{ type: 'desk', area: 'New York' }],
    relations: [{ type: 'manager', value: 'ada@acme.test' }],
  });
  person('u-linus', 'linus@acme.test', 'Linus Torvalds', {
    relations: [{ type: 'manager', value: 'ada@acme.test' }],
  });
  person('u-mallory', 'mallory@acme.test', 'Mallory Gone', { suspended: true });
  person('u-ghost', 'ghost@acme.test', 'Hidden Person', { includeInGlobalAddressList: false });
  fake.addGroup('eng@acme.test', [
    { email: 'grace@acme.test', type: 'USER', status: 'ACTIVE' },
    { email: 'sre@acme.test', type: 'GROUP' },
  ]);
  fake.addGroup('sre@acme.test', [{ email: 'linus@acme.test', type: 'USER', status: 'ACTIVE' }]);
}
