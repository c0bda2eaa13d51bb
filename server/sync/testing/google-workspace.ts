// A Google Workspace for org connections' tests: one origin (the connector's baseUrl) with Google's service
// account token endpoint, the Directory's users, and each member's own Gmail and Calendar. A request is answered
// from the data of the member its bearer token acts as, the way Google's APIs answer `users/me` for a delegated
// token: the front routes it to that member's own fake (each a real server with its own token), and the Directory
// only to the admin with the Directory scope.
import type { admin_directory_v1 } from '@googleapis/admin';
import { CALENDAR_SCOPES } from '../../../connectors/gcal';
import { startCalendarFake, type CalendarFake } from '../../../connectors/gcal/fake';
import { GMAIL_SCOPES } from '../../../connectors/gmail';
import { startGmailFake, type GmailFake } from '../../../connectors/gmail/fake';
import { googleError } from '../../../connectors/google/fake-auth';
import { serveDirectory } from '../../../connectors/google/fake';
import {
  serveServiceAccountTokens,
  type FakeServiceAccount,
} from '../../../connectors/google/fake-service-account';
import { DIRECTORY_USERS_SCOPE } from '../../../connectors/google/members';
import { startFakeServer, type FakeRequest, type FakeServer } from '../../../connectors/sdk/fake-server';

const DIRECTORY_TOKEN = 'ya29.directory-upstream';

export interface WorkspaceFake {
  /** The origin the connection's baseUrl points at; its `/token` is the service account key's token_uri. */
  readonly server: FakeServer;
  readonly account: FakeServiceAccount;
  readonly mailboxes: ReadonlyMap<string, GmailFake>;
  readonly calendars: ReadonlyMap<string, CalendarFake>;
  /** Suspends a member in the Directory; Google then refuses to issue tokens acting as them. */
  suspend(email: string): void;
  close(): Promise<void>;
}

export async function startWorkspaceFake(options: {
  admin: string;
  members: readonly string[];
}): Promise<WorkspaceFake> {
  const server = await startFakeServer();
  const account = serveServiceAccountTokens(server);
  const upstreamDirectory = await startFakeServer({ bearerToken: DIRECTORY_TOKEN });
  const directory = serveDirectory(upstreamDirectory);
  const everyone = [options.admin, ...options.members];
  const users = new Map<string, admin_directory_v1.Schema$User>();
  const mailboxes = new Map<string, GmailFake>();
  const calendars = new Map<string, CalendarFake>();
  for (const email of everyone) {
    users.set(email, { primaryEmail: email, suspended: false, isAdmin: email === options.admin });
    directory.putUser(users.get(email)!);
    mailboxes.set(email, await startGmailFake({ mailbox: email }));
    calendars.set(email, await startCalendarFake({ member: email }));
  }
  account.setMembers(everyone);

  const forward = async (request: FakeRequest, upstream: FakeServer, token: string) => {
    const search = request.query.toString();
    const answer = await fetch(`${upstream.url}${request.path}${search ? `?${search}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: answer.status, json: await answer.json() };
  };
  const unauthenticated = googleError(401, 'UNAUTHENTICATED', 'authError', 'Invalid Credentials');
  const insufficient = googleError(
    403,
    'PERMISSION_DENIED',
    'insufficientPermissions',
    'Insufficient Permission',
  );

  server.route('GET', '/admin/directory/v1/users', (request) => {
    const holder = account.holderOf(request.headers.authorization);
    if (!holder) return unauthenticated;
    if (!holder.scopes.includes(DIRECTORY_USERS_SCOPE)) return insufficient;
    if (holder.subject !== options.admin)
      return googleError(403, 'PERMISSION_DENIED', 'forbidden', 'Not Authorized to access this resource/api');
    return forward(request, upstreamDirectory, DIRECTORY_TOKEN);
  });
  const perMember = (scope: string, fakes: ReadonlyMap<string, GmailFake | CalendarFake>) =>
    async function route(request: FakeRequest) {
      const holder = account.holderOf(request.headers.authorization);
      if (!holder) return unauthenticated;
      if (!holder.scopes.includes(scope)) return insufficient;
      const own = fakes.get(holder.subject);
      if (!own)
        return googleError(400, 'FAILED_PRECONDITION', 'failedPrecondition', 'Mail service not enabled');
      return forward(request, own.server, own.accessToken());
    };
  for (const path of [
    '/gmail/v1/users/:userId/profile',
    '/gmail/v1/users/:userId/threads',
    '/gmail/v1/users/:userId/threads/:id',
    '/gmail/v1/users/:userId/history',
  ])
    server.route('GET', path, perMember(GMAIL_SCOPES[0], mailboxes));
  for (const path of ['/calendar/v3/users/me/calendarList', '/calendar/v3/calendars/:calendarId/events'])
    server.route('GET', path, perMember(CALENDAR_SCOPES[0], calendars));

  return {
    server,
    account,
    mailboxes,
    calendars,
    suspend(email) {
      directory.putUser({ ...users.get(email)!, suspended: true });
      account.setMembers(everyone.filter((member) => member !== email));
    },
    async close() {
      await Promise.all([
        server.close(),
        upstreamDirectory.close(),
        ...[...mailboxes.values(), ...calendars.values()].map((fake) => fake.close()),
      ]);
    },
  };
}
