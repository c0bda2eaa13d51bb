// What the Google fakes share: Google's page tokens and error shapes, and the Directory API (users, groups and
// members, https://developers.google.com/workspace/admin/directory/reference/rest/v1) served on a fake server,
// answers typed with Google's SDK types so an invented field does not compile.
import { createHash } from 'node:crypto';
import type { admin_directory_v1 } from '@googleapis/admin';
import type { FakeResponse, FakeServer } from '../sdk/fake-server';

/** Page tokens are opaque, as Google's are: the base64 of an offset. */
export function pageOf<T>(items: readonly T[], token: string | null, size: number) {
  const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
  const end = start + size;
  return {
    items: items.slice(start, end),
    next: end < items.length ? Buffer.from(String(end), 'utf8').toString('base64url') : undefined,
  };
}

export const notFound = (what: string): FakeResponse => ({
  status: 404,
  json: { error: { code: 404, message: `${what} not found`, errors: [{ reason: 'notFound' }] } },
});

const etagOf = (value: unknown) =>
  `"${createHash('sha256').update(JSON.stringify(value)).digest('base64url')}"`;

export interface DirectoryFake {
  addGroup(email: string, members: readonly admin_directory_v1.Schema$Member[]): void;
  setMembers(email: string, members: readonly admin_directory_v1.Schema$Member[]): void;
  /** Adds or replaces a user (by primaryEmail); its etag follows its content, as Google's does. */
  putUser(user: admin_directory_v1.Schema$User): void;
  removeUser(primaryEmail: string): void;
}

/** Serves the Directory API's users, groups and members on `server`, behind its bearer check. */
export function serveDirectory(server: FakeServer, pageSize = 200): DirectoryFake {
  const groups = new Map<
    string,
    { group: admin_directory_v1.Schema$Group; members: admin_directory_v1.Schema$Member[] }
  >();
  const users = new Map<string, admin_directory_v1.Schema$User>();
  // Sorted once per change, not per page: a listing of tens of thousands of people reads it hundreds of times.
  let byEmail: admin_directory_v1.Schema$User[] | null = null;
  const badRequest = { status: 400, json: { error: { code: 400, message: 'Bad Request' } } };

  server.route('GET', '/admin/directory/v1/users', ({ query }) => {
    if (query.get('customer') !== 'my_customer') return badRequest;
    const sorted = (byEmail ??= [...users.values()].sort((a, b) =>
      (a.primaryEmail ?? '').localeCompare(b.primaryEmail ?? ''),
    ));
    const size = Math.min(Number(query.get('maxResults') ?? 100), pageSize);
    const page = pageOf(sorted, query.get('pageToken'), size);
    return {
      json: {
        kind: 'admin#directory#users',
        etag: etagOf(page.items),
        users: page.items,
        ...(page.next ? { nextPageToken: page.next } : {}),
      } satisfies admin_directory_v1.Schema$Users,
    };
  });

  server.route('GET', '/admin/directory/v1/users/:userKey', ({ params }) => {
    const user =
      users.get(params.userKey ?? '') ?? [...users.values()].find((entry) => entry.id === params.userKey);
    return user
      ? { json: user satisfies admin_directory_v1.Schema$User }
      : notFound(`User ${params.userKey}`);
  });

  server.route('GET', '/admin/directory/v1/groups', ({ query }) => {
    if (query.get('customer') !== 'my_customer') return badRequest;
    const page = pageOf(
      [...groups.values()].map((entry) => entry.group),
      query.get('pageToken'),
      pageSize,
    );
    return {
      json: {
        kind: 'admin#directory#groups',
        groups: page.items,
        ...(page.next ? { nextPageToken: page.next } : {}),
      } satisfies admin_directory_v1.Schema$Groups,
    };
  });

  server.route('GET', '/admin/directory/v1/groups/:groupKey/members', ({ params, query }) => {
    const entry = [...groups.values()].find(
      (candidate) => candidate.group.id === params.groupKey || candidate.group.email === params.groupKey,
    );
    if (!entry) return notFound(`Group ${params.groupKey}`);
    const page = pageOf(entry.members, query.get('pageToken'), pageSize);
    return {
      json: {
        kind: 'admin#directory#members',
        members: page.items,
        ...(page.next ? { nextPageToken: page.next } : {}),
      } satisfies admin_directory_v1.Schema$Members,
    };
  });

  return {
    addGroup(email, members) {
      groups.set(email, {
        group: { kind: 'admin#directory#group', id: `gid-${email.split('@')[0]}`, email, name: email },
        members: [...members],
      });
    },
    setMembers(email, members) {
      const entry = groups.get(email);
      if (entry) entry.members = [...members];
    },
    putUser(user) {
      const { etag: _etag, ...content } = user;
      users.set(user.primaryEmail ?? '', { kind: 'admin#directory#user', ...content, etag: etagOf(content) });
      byEmail = null;
    },
    removeUser(primaryEmail) {
      users.delete(primaryEmail);
      byEmail = null;
    },
  };
}
