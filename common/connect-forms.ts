// The connect dialog of every app in the catalogue (spec apps-and-connections §2, §5, §6, §7), described as data:
// which install payload it sends, its numbered instructions, its fields, and the notes on what the connecting
// account needs. The app renders one generic dialog from this, and validates with the same payload schemas the
// install route reads, so the dialog and the server cannot disagree on what is valid.
import type { z } from 'zod';
import { INSTALL_PAYLOAD_SCHEMAS, type InstallPayloadKind } from './api/connectors';
import {
  DIRECT_INSTALL_NOTICE_APPS,
  GWORKSPACE_CHILDREN,
  NO_VISIBLE_CONNECT_APPS,
  type AppDefinition,
  type AppShortname,
} from './catalogue';
import { CREDENTIAL_NAMES, apps as appStrings } from './strings';

export type CredentialName = (typeof CREDENTIAL_NAMES)[keyof typeof CREDENTIAL_NAMES];

export interface ConnectField {
  /** The install payload's key (spec §7). */
  readonly key: string;
  readonly label: string;
  /** Secret fields travel as `credentials`, masked as typed; the rest as `options`. */
  readonly secret: boolean;
  /**
   * 'image' is a picked file sent as a data URL (a custom API's icon). 'archive' is a site's export zip, uploaded
   * with the dialog's site id as soon as it is picked and never part of the install body: its value is the stored
   * upload's id, blank until the upload has finished, so Connect waits for it (spec §5).
   */
  readonly input: 'text' | 'email' | 'url' | 'password' | 'image' | 'archive';
  readonly placeholder?: string;
  /** May stay empty; every other field must be filled before Connect is enabled. */
  readonly optional?: boolean;
}

export interface ConnectForm {
  readonly payload: InstallPayloadKind;
  /**
   * How a marketplace org connect gets its org-wide access first: Microsoft's admin-consent popup, or Google's
   * domain-wide delegation, which the admin authorises in the Admin console (no redirect comes back).
   */
  readonly consent?: 'microsoftAdminConsent' | 'googleDelegation';
  readonly instructions: readonly string[];
  readonly fields: readonly ConnectField[];
  /** What the connecting account or the org needs (plans, roles, settings in the vendor's app). */
  readonly requirements: readonly string[];
  /** Names the credential in 'Incorrect {credential name}. Please try again.' */
  readonly credentialName: CredentialName;
}

// Text of ours: the spec lists what each dialog says without quoting it.
export const connectFormCopy = {
  privacy: (app: string) =>
    `Scout indexes only what the connected account can see, and never shows anyone content they cannot open in ${app} themselves.`,
  DIRECT_INSTALL: 'This app is installed directly in Scout: no sign-in with the vendor is needed.',
  EXTENSION_REQUIRED:
    'Needs the Scout browser extension in Chrome, signed in to the app in the same browser.',
  OPEN_VENDOR_SITE_FIRST: 'Open the app in this browser and sign in before you connect.',
  mustBeAdmin: (role: string, app: string) => `The connecting user must be a ${role} in ${app}.`,
  GITHUB_SAML: 'Org connections need a GitHub Enterprise plan with SAML single sign-on.',
  BITBUCKET_CODE_SEARCH: 'Code search must be enabled on at least one Bitbucket workspace.',
  SERVICENOW_PLUGINS: 'ServiceNow needs the plugins com.sn_customerservice and sn_km_api.',
  GITLAB_SELF_MANAGED: 'Org connections support self-managed GitLab instances only, with the api scope.',
  MARKETPLACE_DOMAIN: (domain: string) =>
    `Use an administrator account with an email address at ${domain}; a window opens to grant access.`,
  delegation: {
    TITLE: 'Domain-wide delegation',
    CLIENT_ID: "Scout's client ID",
    SCOPES: 'OAuth scopes (comma-delimited)',
    OPEN_ADMIN_CONSOLE: 'Open domain-wide delegation in the Google Admin console',
  },
  STACKOVERFLOW_CUSTOM_DOMAIN:
    'A custom domain is for Stack Overflow for Teams Enterprise and for individual connections only.',
  step: {
    website: [
      'Enter the address of the website to index, for example https://docs.example.com.',
      'Scout crawls the pages it links to on the same site, respecting robots.txt.',
      'Click Connect. Pages become searchable as they are crawled.',
    ],
    customApi: [
      'Give this connection a name your team will recognise.',
      'Click Connect, then push documents to Scout with an API key from Settings → API Keys.',
    ],
    googleSites: [
      'Enter the address of the Google Site.',
      'Export the site from Google Takeout as a single zip file and upload it.',
      'Click Connect when the upload has finished.',
    ],
    stackOverflowTeams: (app: string) => [
      `In ${app}, open your account settings and create a personal access token (API key).`,
      'Enter your team slug, or your custom domain, and the email address of your account.',
      'Click Connect.',
    ],
    microsoftAdminConsent: (app: string) => [
      `Enter the email address of an Azure Global Administrator of your ${app} tenant.`,
      'Click Connect: a window opens where the administrator grants Scout admin consent for the whole tenant.',
      'The window closes and Scout starts indexing.',
    ],
    googleDelegation: (app: string) => [
      `Enter the email address of a Google Workspace administrator (${app} is read on behalf of your organisation's users).`,
      "Open the Admin console's domain-wide delegation page, click Add new, and paste Scout's client ID and the scopes shown below.",
      'Click Connect: Scout checks that the delegation is authorised and starts indexing.',
    ],
    apiKey: (app: string) => [
      `Sign in to ${app} and open its settings.`,
      `Create an API key for Scout (read access is enough).`,
      'Paste it below and click Connect.',
    ],
    oauth: (app: string) => [
      `Click Connect: a window opens where you sign in to ${app}.`,
      'Approve the read access Scout asks for.',
      'The window closes and Scout starts indexing.',
    ],
    subdomain: (app: string) =>
      `Enter your ${app} subdomain (the part before the vendor's domain in its address).`,
  },
  field: {
    URL: 'URL',
    SITE_ARCHIVE: 'Exported site (.zip)',
    CONNECTION_NAME: 'Connection name',
    ICON: 'Icon',
    API_KEY: 'API key',
    API_SECRET: 'API secret',
    EMAIL: 'Email',
    SUBDOMAIN: 'Subdomain',
    TEAM_SLUG: 'Team slug',
    CUSTOM_DOMAIN: 'Custom domain',
    CLIENT_ID: 'Client ID',
    CLIENT_SECRET: 'Client secret',
  },
} as const;

const F = connectFormCopy.field;
const field = (
  key: string,
  label: string,
  input: ConnectField['input'],
  placeholder?: string,
): ConnectField => ({
  key,
  label,
  secret: input === 'password',
  input,
  ...(placeholder ? { placeholder } : {}),
});
const apiKeyField = field('api_key', F.API_KEY, 'password');
const subdomainField = field('subdomain', F.SUBDOMAIN, 'text', 'acme');

/** Apps connected with an API key (or token) the user pastes, and the extra settings their dialog asks for. */
const API_KEY_APPS: Partial<Record<AppShortname, readonly ConnectField[]>> = {
  aha: [subdomainField, apiKeyField],
  ashby: [apiKeyField],
  brandfolder: [apiKeyField],
  clickup: [apiKeyField],
  document360: [apiKeyField],
  freshdesk: [subdomainField, apiKeyField],
  freshservice: [subdomainField, apiKeyField],
  gitbook: [apiKeyField],
  guru: [field('username', F.EMAIL, 'email'), apiKeyField],
  helpjuice: [subdomainField, apiKeyField],
  highspot: [apiKeyField, field('api_secret', F.API_SECRET, 'password')],
  pipedrive: [apiKeyField],
  productboard: [apiKeyField],
  readme: [apiKeyField],
  shortcut: [apiKeyField],
  slab: [apiKeyField],
};

/** OAuth apps whose dialog asks for more than a click (spec §7: subdomain; ServiceNow; Help Scout). */
const OAUTH_FIELDS: Partial<Record<AppShortname, readonly ConnectField[]>> = {
  jira: [subdomainField],
  confluence: [subdomainField],
  zendesk: [subdomainField],
  monday: [subdomainField],
  servicenow: [
    subdomainField,
    field('clientId', F.CLIENT_ID, 'text'),
    field('clientSecret', F.CLIENT_SECRET, 'password'),
  ],
  helpscout: [field('apiKey', F.API_KEY, 'password')],
};

/** Microsoft 365 apps: their org connections run on the tenant's admin consent (spec §7). */
export const MICROSOFT_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'outlook',
  'onedrive',
  'sharepoint',
  'msteams',
]);

/** Spec §6: dialogs that say the connecting user must hold an admin role in the vendor's app. */
const ADMIN_ROLES: Partial<Record<AppShortname, string>> = {
  ashby: 'admin',
  brandfolder: 'admin',
  clickup: 'admin',
  dropbox: 'Team Admin',
  helpjuice: 'admin',
  freshdesk: 'admin',
  freshservice: 'admin',
  quip: 'Super Admin',
  slab: 'admin',
  slack: 'Workspace Admin',
  attio: 'workspace admin',
  // Only an administrator may read the Workspace's users and groups (spec §6: Google Workspace, admin).
  'gworkspace-directory': 'Google Workspace admin',
};

const EXTENSION_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'monday',
  'figma',
  'gong',
  'notion',
  'freshdesk',
  'freshservice',
  'highspot',
]);
const VENDOR_SITE_FIRST_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'freshdesk',
  'freshservice',
  'highspot',
]);

const has = (set: ReadonlySet<string>, name: string) => set.has(name);

function payloadKind(app: AppDefinition, isOrg: boolean): InstallPayloadKind {
  const name = app.shortname;
  if (name === 'website') return 'website';
  if (name === 'gsites') return 'googleSites';
  if (name === 'custom-api') return 'customApi';
  if (name === 'stackoverflowteams') return 'stackOverflowTeams';
  if (isOrg && (has(GWORKSPACE_CHILDREN, name) || has(MICROSOFT_APPS, name))) return 'marketplace';
  if (name in API_KEY_APPS) return 'apiKey';
  return 'oauth';
}

function requirementsOf(app: AppDefinition, isOrg: boolean, orgDomain: string): string[] {
  const name = app.shortname;
  const notes: string[] = [];
  if (has(DIRECT_INSTALL_NOTICE_APPS, name)) notes.push(connectFormCopy.DIRECT_INSTALL);
  const role =
    ADMIN_ROLES[name as AppShortname] ??
    (name === 'zendesk' && isOrg ? 'admin' : undefined) ??
    (isOrg && has(MICROSOFT_APPS, name) ? 'Azure Global Administrator' : undefined) ??
    (isOrg && has(GWORKSPACE_CHILDREN, name) ? 'Google Workspace admin' : undefined);
  if (role) notes.push(connectFormCopy.mustBeAdmin(role, app.displayName));
  if (name === 'github' && isOrg) notes.push(connectFormCopy.GITHUB_SAML);
  if (name === 'bitbucket') notes.push(connectFormCopy.BITBUCKET_CODE_SEARCH);
  if (name === 'servicenow') notes.push(connectFormCopy.SERVICENOW_PLUGINS);
  if (name === 'gitlab' && isOrg) notes.push(connectFormCopy.GITLAB_SELF_MANAGED);
  if (has(EXTENSION_APPS, name)) notes.push(connectFormCopy.EXTENSION_REQUIRED);
  if (has(VENDOR_SITE_FIRST_APPS, name)) notes.push(connectFormCopy.OPEN_VENDOR_SITE_FIRST);
  if (isOrg && payloadKind(app, isOrg) === 'marketplace')
    notes.push(connectFormCopy.MARKETPLACE_DOMAIN(orgDomain));
  if (name === 'stackoverflowteams' && !isOrg) notes.push(connectFormCopy.STACKOVERFLOW_CUSTOM_DOMAIN);
  // Custom API pushes its own documents; the privacy note is about content synced from a vendor.
  if (name !== 'custom-api') notes.push(connectFormCopy.privacy(app.displayName));
  return notes;
}

/** The connect dialog of `app` for an org or an individual connection. */
export function connectFormOf(app: AppDefinition, isOrg: boolean, orgDomain: string): ConnectForm {
  const name = app.shortname as AppShortname;
  const kind = payloadKind(app, isOrg);
  const S = connectFormCopy.step;
  const requirements = requirementsOf(app, isOrg, orgDomain);
  switch (kind) {
    case 'website':
      return {
        payload: kind,
        instructions: S.website,
        fields: [field('url', F.URL, 'url', 'https://')],
        requirements,
        credentialName: CREDENTIAL_NAMES.credentials,
      };
    case 'googleSites':
      return {
        payload: kind,
        instructions: S.googleSites,
        fields: [
          field('url', F.URL, 'url', 'https://sites.google.com/'),
          field('archive', F.SITE_ARCHIVE, 'archive'),
        ],
        requirements,
        credentialName: CREDENTIAL_NAMES.credentials,
      };
    case 'customApi':
      return {
        payload: kind,
        instructions: S.customApi,
        fields: [
          field('connection_name', F.CONNECTION_NAME, 'text'),
          { ...field('icon', F.ICON, 'image'), optional: true },
        ],
        requirements,
        credentialName: CREDENTIAL_NAMES.credentials,
      };
    case 'stackOverflowTeams':
      return {
        payload: kind,
        instructions: S.stackOverflowTeams(app.displayName),
        fields: [
          apiKeyField,
          field('team_slug', F.TEAM_SLUG, 'text'),
          ...(isOrg ? [] : [field('custom_domain', F.CUSTOM_DOMAIN, 'text', 'stackoverflow.example.com')]),
          field('email', F.EMAIL, 'email'),
        ],
        requirements,
        credentialName: CREDENTIAL_NAMES.personalAccessToken,
      };
    case 'marketplace': {
      const consent = has(MICROSOFT_APPS, name) ? 'microsoftAdminConsent' : 'googleDelegation';
      return {
        payload: kind,
        consent,
        instructions: S[consent](app.displayName),
        fields: [field('email', F.EMAIL, 'email', `admin@${orgDomain}`)],
        requirements,
        credentialName: CREDENTIAL_NAMES.credentials,
      };
    }
    case 'apiKey': {
      const fields = API_KEY_APPS[name] ?? [apiKeyField];
      const subdomain = fields.some((f) => f.key === 'subdomain');
      return {
        payload: kind,
        instructions: [...(subdomain ? [S.subdomain(app.displayName)] : []), ...S.apiKey(app.displayName)],
        fields,
        requirements,
        credentialName: CREDENTIAL_NAMES.apiKey,
      };
    }
    case 'oauth': {
      const fields = OAUTH_FIELDS[name] ?? [];
      const subdomain = fields.some((f) => f.key === 'subdomain');
      return {
        payload: kind,
        instructions: [...(subdomain ? [S.subdomain(app.displayName)] : []), ...S.oauth(app.displayName)],
        fields,
        requirements,
        credentialName: CREDENTIAL_NAMES.credentials,
      };
    }
  }
}

/**
 * Stack Overflow for Teams takes a team slug or a custom domain, not both: the dialog shows both, and an empty one
 * is simply left out. Every other field is required (spec §5: Connect stays disabled while one is blank).
 */
function optionalKeys(form: ConnectForm): ReadonlySet<string> {
  return form.payload === 'stackOverflowTeams' ? new Set(['team_slug', 'custom_domain']) : new Set();
}

/** Whether Connect may be pressed: no required field blank after trimming (spec §5). */
export function isConnectFormFilled(form: ConnectForm, values: Readonly<Record<string, string>>): boolean {
  const optional = optionalKeys(form);
  const blank = (key: string) => (values[key] ?? '').trim() === '';
  const requiredFilled = form.fields.every((f) => f.optional || optional.has(f.key) || !blank(f.key));
  const eitherFilled = optional.size === 0 || [...optional].some((key) => !blank(key));
  return requiredFilled && eitherFilled;
}

/**
 * Ids the dialog makes up: a website's site_id, a custom API's connection_id (spec §7 "generated"). Google Sites
 * sends the site_id its archive was uploaded under, so the dialog's `newId` must answer that same id.
 */
function generatedOptions(form: ConnectForm, newId: () => string): Record<string, unknown> {
  if (form.payload === 'website' || form.payload === 'googleSites') return { site_id: newId() };
  if (form.payload === 'customApi') return { connection_id: newId() };
  if (form.payload === 'marketplace') return { marketplace: true };
  return {};
}

export type ConnectRequest =
  | {
      ok: true;
      body: { isOrg: boolean; credentials: Record<string, string>; options: Record<string, unknown> };
    }
  | { ok: false; message: string };

/**
 * The `PUT /app/install/{app}` body for the typed values, checked with the install route's own payload schema;
 * the first problem's message otherwise ('Please enter a valid URL.' for a website, say).
 */
export function connectRequestOf(
  form: ConnectForm,
  values: Readonly<Record<string, string>>,
  isOrg: boolean,
  newId: () => string,
): ConnectRequest {
  const credentials: Record<string, string> = {};
  const options: Record<string, unknown> = generatedOptions(form, newId);
  for (const f of form.fields) {
    const value = (values[f.key] ?? '').trim();
    if (value === '' || f.input === 'archive') continue;
    if (f.secret) credentials[f.key] = value;
    else options[f.key] = value;
  }
  const parsed = (INSTALL_PAYLOAD_SCHEMAS[form.payload] as z.ZodType).safeParse({
    ...options,
    ...credentials,
  });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? parsed.error.message };
  return { ok: true, body: { isOrg, credentials, options } };
}

/** The failure toast of an install that did not tell us why (spec §8), by the kind of dialog. */
export function installFailureMessage(form: ConnectForm, app: string): string {
  if (form.payload === 'website' || form.payload === 'googleSites') return appStrings.failedToInstallUrl(app);
  if (form.payload === 'customApi') return appStrings.failedToInstallConnectionName(app);
  return appStrings.failedToInstallCredentials(app);
}

/**
 * How an app is added (spec §2, §3): through the 'Org connection' / 'Individual connection' menu, or, for apps
 * whose org connection is managed rather than signed in to (HRIS, custom API, Google Sites, websites), straight
 * from one button to their own dialog.
 */
export function addsThroughMenu(app: AppDefinition): boolean {
  return !has(NO_VISIBLE_CONNECT_APPS, app.shortname);
}

/** The menu's labels; GitLab names its kinds of instance (spec §2). */
export function connectMenuLabels(app: AppDefinition, gitlabHost = 'gitlab.com') {
  return app.shortname === 'gitlab'
    ? { org: appStrings.GITLAB_ORG_CONNECTION, individual: appStrings.gitlabIndividualConnection(gitlabHost) }
    : { org: appStrings.ORG_CONNECTION, individual: appStrings.INDIVIDUAL_CONNECTION };
}
