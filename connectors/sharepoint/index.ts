// SharePoint Online, connected org-wide by the tenant's admin consent (every site's document libraries) or by a member
// (the sites Graph's search lists to them), each file readable by whom its permissions say (./graph.ts). Site pages
// and list items are not indexed yet.
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { defineConnector } from '../sdk';
import { tenantConfigSchema, type Graph } from '../microsoft/app-only';
import { MICROSOFT_LOGIN_URL, microsoftOAuth } from '../microsoft/graph';
import { driveCredentialsSchema, driveGraph, driveSync, isOrgDrive, type DriveRef } from './graph';

const SHORTNAME = 'sharepoint';

const siteSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  name: z.string().nullish(),
});
const driveSchema = z.object({ id: z.string(), name: z.string().nullish() });

/**
 * Every site's document libraries. `search=*` lists all sites the caller may read: all of them for an app-only
 * token, those the member can reach for a delegated one.
 */
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

/** Delegated: the sites and files the member may read, basic profiles and group memberships for the ACLs. */
export const SHAREPOINT_SCOPES = [
  'Sites.Read.All',
  'Files.Read.All',
  'User.ReadBasic.All',
  'GroupMember.Read.All',
] as const;

/** Builds the connector; tests point the OAuth endpoints at a fake identity platform. */
export function createSharePointConnector(options: { loginUrl?: string } = {}) {
  return defineConnector({
    shortname: SHORTNAME,
    installPayload: { org: 'marketplace', individual: 'oauth' },
    credentialsSchema: driveCredentialsSchema,
    configSchema: tenantConfigSchema,
    credentialFields: [],
    credentialName: CREDENTIAL_NAMES.credentials,
    // Graph throttles SharePoint per app and tenant; a few requests at a time stays clear of it on large tenants.
    limits: { concurrency: 4 },
    oauth: microsoftOAuth(SHAREPOINT_SCOPES, options.loginUrl ?? MICROSOFT_LOGIN_URL),

    async validate(ctx) {
      const root = await driveGraph(SHORTNAME)(ctx).json('/sites/root', siteSchema, {
        query: { $select: 'id,displayName,name' },
      });
      return {
        workspaceName: root.displayName || root.name || undefined,
        ...(isOrgDrive(ctx) ? { email: ctx.credentials.email } : {}),
      };
    },

    ...driveSync(driveGraph(SHORTNAME), listDrives),
  });
}

export const sharepointConnector = createSharePointConnector();
