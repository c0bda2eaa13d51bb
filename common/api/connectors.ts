// Install payloads of spec apps-and-connections §7: what a connect dialog sends for each kind of app. Each
// connector names the kind it takes; the install route parses the body with that kind's schema, then hands the
// result to the connector's own credential and config schemas (zod objects keep only the keys they name, so the
// secret fields land in credentials and the rest, such as subdomain or team_slug, in config).
import { z } from 'zod';
import { CUSTOM_API_ICON_MAX_BYTES } from '../limits';
import { apps } from '../strings';
import { siteIdSchema } from './uploads';

export const INSTALL_PAYLOAD_KINDS = [
  'apiKey',
  'customApi',
  'website',
  'googleSites',
  'stackOverflowTeams',
  'marketplace',
  'oauth',
] as const;
export type InstallPayloadKind = (typeof INSTALL_PAYLOAD_KINDS)[number];

/** Connect stays disabled while a credential field is blank after trimming (spec §5); the server agrees. */
const filled = z.string().trim().min(1);

/** API-key apps. Highspot adds api_secret; subdomain and team_slug only where the app's dialog asks for them. */
export const apiKeyInstallSchema = z.object({
  username: z.email().optional(),
  api_key: filled,
  api_secret: filled.optional(),
  subdomain: filled.optional(),
  team_slug: filled.optional(),
  auth_session: z.string().optional(),
  auth_flag: z.union([z.string(), z.boolean()]).optional(),
});

/** An icon's size in bytes: decoded when it is a base64 data URL, as the dialog sends an uploaded image. */
export function iconBytes(icon: string): number {
  const base64 = /^data:[^,]*;base64,(.*)$/s.exec(icon)?.[1];
  if (base64 === undefined) return new TextEncoder().encode(icon).length;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

export const customApiInstallSchema = z.object({
  connection_name: z.string().trim().min(1, apps.UNIQUE_CONNECTION_NAME),
  connection_id: z.string().min(1),
  icon: z
    .string()
    .refine((icon) => iconBytes(icon) <= CUSTOM_API_ICON_MAX_BYTES, apps.ICON_TOO_LARGE)
    .optional(),
});

export const websiteInstallSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: apps.VALID_URL }),
  site_id: z.string().min(1),
});

/**
 * The exported site archive travels first, as a zip upload to /document_uploads/zip whose site-id header is this
 * site_id; the install names it rather than carrying it.
 */
export const googleSitesInstallSchema = websiteInstallSchema.extend({ site_id: siteIdSchema });

/** Either a team slug or a custom domain (Enterprise, individual connections only); a trailing slash is dropped. */
export const stackOverflowTeamsInstallSchema = z
  .object({
    api_key: filled,
    email: z.email(),
    custom_domain: filled.transform((domain) => domain.replace(/\/+$/, '')).optional(),
    team_slug: filled.optional(),
  })
  .refine((body) => (body.custom_domain === undefined) !== (body.team_slug === undefined), {
    message: 'Give a team slug or a custom domain.',
    path: ['team_slug'],
  });

export const marketplaceInstallSchema = z.object({
  email: z.email(),
  marketplace: z.literal(true),
});

/** Empty for most OAuth apps; ServiceNow adds client id and secret, Help Scout an API key, Monday a subdomain. */
export const oauthInstallSchema = z.object({
  subdomain: filled.optional(),
  clientId: filled.optional(),
  clientSecret: filled.optional(),
  apiKey: filled.optional(),
});

export const INSTALL_PAYLOAD_SCHEMAS = {
  apiKey: apiKeyInstallSchema,
  customApi: customApiInstallSchema,
  website: websiteInstallSchema,
  googleSites: googleSitesInstallSchema,
  stackOverflowTeams: stackOverflowTeamsInstallSchema,
  marketplace: marketplaceInstallSchema,
  oauth: oauthInstallSchema,
} as const satisfies Record<InstallPayloadKind, z.ZodType>;

export type InstallPayload<K extends InstallPayloadKind> = z.infer<(typeof INSTALL_PAYLOAD_SCHEMAS)[K]>;
