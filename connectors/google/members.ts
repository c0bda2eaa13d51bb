// The org connection of an app that reads one member's own data (Gmail, Calendar): the Workspace admin's
// marketplace install makes one connection that reads every active member's mailbox or calendars through the
// service account (domain-wide delegation), each exactly as that member's individual connection would, so each
// document keeps the individual connector's readers (its owner; a calendar event's attendees too). Documents are
// namespaced by member, since two mailboxes may number their threads alike.
import type { admin_directory_v1 } from '@googleapis/admin';
import { z } from 'zod';
import {
  FatalSourceError,
  cursorSchema,
  defineConnector,
  type Connector,
  type Cursor,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import {
  actingAs,
  call,
  directoryApi,
  googleConfigSchema,
  googleCredentialsSchema,
  isDelegated,
  type GoogleConfig,
  type GoogleContext,
  type GoogleCredentials,
} from './api';
import { UnknownMemberError } from './service-account';

/** What the connection reads the Workspace's users with, acting as its admin. */
export const DIRECTORY_USERS_SCOPE = 'https://www.googleapis.com/auth/admin.directory.user.readonly';

type GoogleConnector = Connector<GoogleCredentials, GoogleConfig>;

/** Each member's place in their own sync, as the individual connector's cursor. */
const orgCursorSchema = z.object({
  v: z.literal(1),
  members: z.record(z.string(), cursorSchema),
});
type OrgCursor = z.output<typeof orgCursorSchema>;

const namespaced = (member: string, id: string) => `${member}/${id}`;

function ofMember(member: string, batch: SyncBatch): Omit<SyncBatch, 'cursor' | 'progress'> {
  return {
    documents: batch.documents.map((document): SourceDocument => ({
      ...document,
      externalId: namespaced(member, document.externalId),
      ...(document.parentExternalId
        ? { parentExternalId: namespaced(member, document.parentExternalId) }
        : {}),
    })),
    deletedExternalIds: (batch.deletedExternalIds ?? []).map((id) => namespaced(member, id)),
  };
}

/** The Workspace's active members, in the Directory's order; suspended and archived accounts read nothing. */
export async function workspaceMembers(ctx: GoogleContext): Promise<string[]> {
  const admin = actingAs(ctx, adminOf(ctx), [DIRECTORY_USERS_SCOPE]);
  const directory = directoryApi(admin);
  const members: string[] = [];
  let pageToken: string | undefined;
  do {
    const page: admin_directory_v1.Schema$Users = await call(
      directory.users.list({
        customer: 'my_customer',
        orderBy: 'email',
        maxResults: 500,
        pageToken,
        fields: 'nextPageToken,users(primaryEmail,suspended,archived)',
      }),
    );
    for (const user of page.users ?? [])
      if (user.primaryEmail && !user.suspended && !user.archived)
        members.push(user.primaryEmail.toLowerCase());
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return members;
}

function adminOf(ctx: GoogleContext): string {
  if (!isDelegated(ctx)) throw new FatalSourceError('an individual connection has no Workspace admin');
  return ctx.credentials.email;
}

/**
 * One pass over every member: a member with a saved place continues from it, a new one starts from the beginning,
 * and a member gone from the Directory drops out (pruning removes their documents). Every batch's cursor holds
 * every member's place, so the pass resumes where it stopped. Progress is the share of members done.
 */
async function* everyMember(
  connector: GoogleConnector,
  scopes: readonly string[],
  ctx: GoogleContext,
  saved: OrgCursor | null,
): AsyncGenerator<SyncBatch> {
  const members = await workspaceMembers(ctx);
  const state: OrgCursor = { v: 1, members: {} };
  for (const member of members) {
    const place = saved?.members[member];
    if (place !== undefined) state.members[member] = place;
  }
  if (members.length === 0) {
    yield { documents: [], cursor: state, progress: { share: 1 } };
    return;
  }
  for (const [index, member] of members.entries()) {
    const memberCtx = actingAs(ctx, member, scopes);
    const place = state.members[member];
    const batches =
      place === undefined ? connector.fullSync(memberCtx) : connector.incrementalSync(memberCtx, place);
    try {
      for await (const batch of batches) {
        state.members[member] = batch.cursor;
        yield {
          ...ofMember(member, batch),
          cursor: structuredClone(state),
          progress: { share: index / members.length },
        };
      }
    } catch (error) {
      // Suspended or deleted since the Directory listed them: nothing of theirs is readable any more.
      if (!(error instanceof UnknownMemberError)) throw error;
      delete state.members[member];
      ctx.logger.info({ connector: connector.shortname }, 'a member left the Workspace mid-sync');
    }
  }
  yield { documents: [], cursor: structuredClone(state), progress: { share: 1 } };
}

/**
 * `connector`, also connectable org-wide by the Workspace admin's marketplace install (spec §7), reading each
 * member with `scopes`, which the super admin grants the service account in the Admin console with
 * DIRECTORY_USERS_SCOPE. An individual connection (OAuth tokens) runs the connector as it is.
 */
export function withWorkspaceOrgConnection(
  connector: GoogleConnector,
  scopes: readonly string[],
): GoogleConnector {
  // Their answers name documents by the member's own ids, which an org connection namespaces.
  if (connector.permissions || connector.documentAcls)
    throw new Error(`${connector.shortname}: an org connection per member cannot map its permission syncs`);
  const org = (ctx: GoogleContext) => isDelegated(ctx);
  return defineConnector({
    ...connector,
    installPayload: { org: 'marketplace', individual: 'oauth' },
    delegatedScopes: [DIRECTORY_USERS_SCOPE, ...scopes],
    credentialsSchema: googleCredentialsSchema,
    configSchema: googleConfigSchema,

    async validate(ctx) {
      if (!org(ctx)) return connector.validate(ctx);
      const admin = adminOf(ctx);
      // Only an admin may list the Directory; the admin's own data proves the app's scopes were delegated.
      await workspaceMembers(ctx);
      await connector.validate(actingAs(ctx, admin, scopes));
      return { email: admin, appUserId: admin, workspaceName: admin.split('@')[1] };
    },

    fullSync(ctx) {
      return org(ctx) ? everyMember(connector, scopes, ctx, null) : connector.fullSync(ctx);
    },

    incrementalSync(ctx, cursor: Cursor) {
      if (!org(ctx)) return connector.incrementalSync(ctx, cursor);
      const saved = orgCursorSchema.safeParse(cursor);
      if (!saved.success) ctx.logger.warn({ connector: connector.shortname }, 'unreadable cursor, full sync');
      return everyMember(connector, scopes, ctx, saved.success ? saved.data : null);
    },

    async *listIds(ctx) {
      if (!org(ctx)) {
        yield* connector.listIds(ctx);
        return;
      }
      for (const member of await workspaceMembers(ctx)) {
        try {
          for await (const ids of connector.listIds(actingAs(ctx, member, scopes)))
            yield ids.map((id) => namespaced(member, id));
        } catch (error) {
          if (!(error instanceof UnknownMemberError)) throw error;
        }
      }
    },
  });
}
