// OneDrive for Business, connected org-wide by the tenant's admin consent: every user's OneDrive, each file
// readable by whom its permissions say (the owner, people and groups it is shared with, sharing links). The Graph
// side is SharePoint's (OneDrive is a SharePoint drive per user), so it comes from there.
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { NotFoundError, defineConnector } from '../sdk';
import { Graph, tenantConfigSchema, tenantCredentialsSchema } from '../microsoft/app-only';
import { driveSync, type DriveRef } from '../sharepoint/graph';

const SHORTNAME = 'onedrive';

const userSchema = z.object({ id: z.string(), displayName: z.string().nullish() });
const driveSchema = z.object({ id: z.string() });

/** Each user's OneDrive; a user without one (unlicensed, never signed in) answers 404 and is skipped. */
async function listDrives(graph: Graph): Promise<DriveRef[]> {
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

export const onedriveConnector = defineConnector({
  shortname: SHORTNAME,
  installPayload: { org: 'marketplace' },
  credentialsSchema: tenantCredentialsSchema,
  configSchema: tenantConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  limits: { concurrency: 4 },

  async validate(ctx) {
    // Reading the directory is what the sync starts with; it proves the consent covers it.
    await new Graph(ctx, SHORTNAME).json('/users', z.object({ value: z.array(userSchema) }), {
      query: { $select: 'id,displayName', $top: 1 },
    });
    return { workspaceName: ctx.credentials.email.split('@')[1], email: ctx.credentials.email };
  },

  ...driveSync(SHORTNAME, listDrives),
});
