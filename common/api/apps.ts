// App connections (spec apps-and-connections §3–§7, shell-and-account §7.3): `PUT /app/install/{app}`,
// `DELETE /app/disconnect_app_name/{app}`, `PUT /oauth/{app}` and `GET /_fetchData/apps`.
import { z } from 'zod';
import { APP_SHORTNAMES, AppCategory, ConnectionType, ObjectType } from '../catalogue';

export const appParamsSchema = z.object({ app: z.string().min(1).max(100) });

/**
 * The connect dialog's body: the app's install payload (spec §7) as `credentials` (secret fields) and `options`
 * (subdomain, team slug, site id…); the route merges them and reads them with the app's payload schema. `appId`
 * names an existing connection to reconnect.
 */
export const installRequestSchema = z.object({
  isOrg: z.boolean().default(false),
  credentials: z.record(z.string(), z.unknown()).default({}),
  options: z.record(z.string(), z.unknown()).default({}),
  v2: z.boolean().optional(),
  appId: z.uuid().optional(),
});
export type InstallRequest = z.input<typeof installRequestSchema>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'True', 'False', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === 'True' || value === '1');

export const disconnectQuerySchema = z.object({
  admin: flag.optional(),
  appId: z.uuid().optional(),
});

export const appConnectionSchema = z.object({
  id: z.string(),
  appName: z.string(),
  shortName: z.string(),
  displayName: z.string(),
  /** The org's domain for an org connection, '' for an individual one (spec §3). */
  org: z.string(),
  email: z.string().nullable(),
  workspaceName: z.string().nullable(),
  connectionName: z.string().nullable(),
  userId: z.string().nullable(),
  statusCode: z.number().int(),
  statusMessage: z.string().nullable(),
  syncedFrom: z.string().nullable(),
  syncedUntil: z.string().nullable(),
  /** 0–100: the badge's 'syncing (N%)'. */
  progress: z.number().int().min(0).max(100),
  isOrg: z.boolean(),
  isInstant: z.boolean(),
  createdAt: z.string(),
  /** For admins only: the documents indexed from the connection. */
  itemCount: z.number().int().min(0).optional(),
  /** For admins only: the last failed sync attempt, cleared when a sync completes. */
  lastError: z.string().nullable().optional(),
  lastErrorAt: z.string().nullable().optional(),
});
export type AppConnectionView = z.infer<typeof appConnectionSchema>;

export const appEntrySchema = z.object({
  shortname: z.enum(APP_SHORTNAMES as [string, ...string[]]),
  displayName: z.string(),
  description: z.string(),
  connectionType: z.enum(Object.values(ConnectionType) as [string, ...string[]]),
  objectTypes: z.array(z.enum(Object.values(ObjectType) as [string, ...string[]])),
  instantAvailable: z.number().int(),
  appCategory: z.array(z.enum(Object.values(AppCategory) as [string, ...string[]])),
  showInAppStore: z.boolean(),
  controlEnabled: z.boolean(),
  parent: z.string().optional(),
  popularAppSortOrder: z.number().optional(),
  /**
   * Whether this server can make the app's org and individual connections (a connector declaring that kind's
   * install payload); the others answer NOT_IMPLEMENTED on install.
   */
  available: z.object({ org: z.boolean(), individual: z.boolean() }),
  /** The viewer's own connections of the app and the org's connections; never another member's own. */
  connections: z.array(appConnectionSchema),
});

export const appsResponseSchema = z.object({ apps: z.array(appEntrySchema) });
export type AppsResponse = z.infer<typeof appsResponseSchema>;

export const disconnectResponseSchema = z.object({ connection: appConnectionSchema });
export const installResponseSchema = z.object({ connection: appConnectionSchema });
