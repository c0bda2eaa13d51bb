// SharePoint Online, connected org-wide by the tenant's admin consent: every site's document libraries, each file
// readable by whom its permissions say (./graph.ts). Site pages and list items are not indexed yet.
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { defineConnector } from '../sdk';
import {
  Graph,
  tenantConfigSchema,
  tenantCredentialsSchema,
  type TenantContext,
} from '../microsoft/app-only';
import { driveSync, type DriveRef } from './graph';

const SHORTNAME = 'sharepoint';

const siteSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  name: z.string().nullish(),
});
const driveSchema = z.object({ id: z.string(), name: z.string().nullish() });

/** Every site's document libraries. `search=*` lists all sites the app may read (app-only tokens: all of them). */
async function listDrives(graph: Graph): Promise<DriveRef[]> {
  const drives: DriveRef[] = [];
  for await (const sites of graph.pages('/sites', siteSchema, {
    search: '*',
    $select: 'id,displayName,name',
  })) {
    for (const site of sites) {
      const libraries = graph.pages(`/sites/${encodeURIComponent(site.id)}/drives`, driveSchema, {
        $select: 'id,name',
      });
      for await (const batch of libraries) {
        for (const drive of batch) {
          const siteName = site.displayName || site.name || 'SharePoint';
          drives.push({ id: drive.id, name: `${siteName} / ${drive.name || 'Documents'}` });
        }
      }
    }
  }
  return drives;
}

export const sharepointConnector = defineConnector({
  shortname: SHORTNAME,
  installPayload: { org: 'marketplace' },
  credentialsSchema: tenantCredentialsSchema,
  configSchema: tenantConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  // Graph throttles SharePoint per app and tenant; a few requests at a time stays clear of it on large tenants.
  limits: { concurrency: 4 },

  async validate(ctx) {
    const root = await Graph.appOnly(ctx, SHORTNAME).json('/sites/root', siteSchema, {
      query: { $select: 'id,displayName,name' },
    });
    return { workspaceName: root.displayName || root.name || undefined, email: ctx.credentials.email };
  },

  ...driveSync((ctx: TenantContext) => Graph.appOnly(ctx, SHORTNAME), listDrives),
});
