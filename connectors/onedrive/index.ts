// OneDrive for Business. Connected org-wide by the tenant's admin consent: every user's OneDrive. Connected by a
// member: their own OneDrive, with their delegated token. Either way each file is readable by whom its permissions
// say (the owner, people and groups it is shared with, sharing links), computed by the same code. The Graph side is
// SharePoint's (OneDrive is a SharePoint drive per user), so it comes from there.
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { NotFoundError, defineConnector } from '../sdk';
import { tenantConfigSchema, type Graph } from '../microsoft/app-only';
import { MICROSOFT_LOGIN_URL, microsoftOAuth } from '../microsoft/graph';
import {
  driveCredentialsSchema,
  driveGraph,
  driveSync,
  SHAREPOINT_ONLINE,
  isOrgDrive,
  type DriveContext,
  type DriveRef,
} from '../sharepoint/graph';

const SHORTNAME = 'onedrive';

/**
 * Delegated: the member's files and what is shared with them, the directory's basic profiles (grants name users by
 * id) and group memberships (grants to Entra groups), all read-only.
 */
export const ONEDRIVE_SCOPES = ['Files.Read.All', 'User.ReadBasic.All', 'GroupMember.Read.All'] as const;

const userSchema = z.object({ id: z.string(), displayName: z.string().nullish() });
const driveSchema = z.object({ id: z.string() });

/**
 * Each user's OneDrive (a user without one, unlicensed or never signed in, answers 404 and is skipped), or the
 * member's own.
 */
async function listDrives(graph: Graph, ctx: DriveContext): Promise<DriveRef[]> {
  if (!isOrgDrive(ctx)) {
    const own = await graph.json('/me/drive', driveSchema, { query: { $select: 'id' } });
    return [{ id: own.id, name: 'OneDrive' }];
  }
  const drives: DriveRef[] = [];
  for await (const users of graph.pages('/users', userSchema, { $select: 'id,displayName', $top: 999 })) {
    for (const user of users) {
      try {
        const drive = await graph.json(`/users/${encodeURIComponent(user.id)}/drive`, driveSchema, {
          query: { $select: 'id' },
        });
        drives.push({ id: drive.id, name: `OneDrive / ${user.displayName || user.id}` });
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
  }
  return drives;
}

/** Builds the connector; tests point the OAuth endpoints at a fake identity platform. */
export function createOneDriveConnector(options: { loginUrl?: string } = {}) {
  return defineConnector({
    shortname: SHORTNAME,
    installPayload: { org: 'marketplace', individual: 'oauth' },
    credentialsSchema: driveCredentialsSchema,
    configSchema: tenantConfigSchema,
    credentialFields: [],
    credentialName: CREDENTIAL_NAMES.credentials,
    ...SHAREPOINT_ONLINE,
    oauth: microsoftOAuth(ONEDRIVE_SCOPES, options.loginUrl ?? MICROSOFT_LOGIN_URL),

    async validate(ctx) {
      const graph = driveGraph(SHORTNAME)(ctx);
      if (!isOrgDrive(ctx)) {
        // The member's own drive is what the sync reads; reaching it proves Files.Read.All was granted.
        await listDrives(graph, ctx);
        return {};
      }
      // Reading the directory is what the sync starts with; it proves the consent covers it.
      await graph.json('/users', z.object({ value: z.array(userSchema) }), {
        query: { $select: 'id,displayName', $top: 1 },
      });
      return { workspaceName: ctx.credentials.email.split('@')[1], email: ctx.credentials.email };
    },

    ...driveSync(driveGraph(SHORTNAME), listDrives),
  });
}

export const onedriveConnector = createOneDriveConnector();
