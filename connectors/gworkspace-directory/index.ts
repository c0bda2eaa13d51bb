// The Google Workspace directory: its people as contacts (spec §9: name, email, title, department, location,
// manager name) and its groups with their nested memberships, from the Directory API
// (https://developers.google.com/workspace/admin/directory/reference/rest/v1/users/list), read by an administrator.
// The API has no change feed for a poll, so every sync lists the people again; each person's etag changes with them,
// and the cursor keeps a short fingerprint of each id and etag seen, so a later sync yields only who changed.
import { createHash } from 'node:crypto';
import type { admin_directory_v1 } from '@googleapis/admin';
import { z } from 'zod';
import { ObjectType } from '../../common/catalogue';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { ORG_PRINCIPAL, NotFoundError, defineConnector, type SourceDocument, type SyncBatch } from '../sdk';
import {
  call,
  directoryApi,
  googleConfigSchema,
  googleCredentialsSchema,
  googleOAuth,
  type GoogleContext,
} from '../google/api';
import { directoryGroups } from '../google/directory';

export const DIRECTORY_SCOPES = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
] as const;

const PAGE_SIZE = 200;
const USER_FIELDS =
  'id,etag,primaryEmail,name(fullName),suspended,archived,includeInGlobalAddressList,organizations,locations,relations,creationTime';

/** The parts of a user the SDK types as `any`, as the reference documents them. */
const organizationsSchema = z
  .array(
    z
      .object({
        title: z.string().optional(),
        department: z.string().optional(),
        location: z.string().optional(),
        primary: z.boolean().optional(),
      })
      .loose(),
  )
  .catch([]);
const locationsSchema = z
  .array(z.object({ area: z.string().optional(), buildingId: z.string().optional() }).loose())
  .catch([]);
const relationsSchema = z
  .array(z.object({ type: z.string().optional(), value: z.string() }).loose())
  .catch([]);

/**
 * `listed`: fingerprints of the people yielded by the last complete listing; `seen`: those of the listing under way,
 * `pageToken` its next page (absent before the first).
 */
const cursorSchema = z.object({
  listed: z.string(),
  seen: z.string(),
  pageToken: z.string().min(1).nullable(),
});
type DirectoryCursor = z.infer<typeof cursorSchema>;

const FINGERPRINT_CHARS = 12;
const fingerprintOf = (user: admin_directory_v1.Schema$User) =>
  createHash('sha256')
    .update(`${user.id ?? ''}\n${user.etag ?? ''}`)
    .digest('base64url')
    .slice(0, FINGERPRINT_CHARS);
const fingerprintsIn = (joined: string) => {
  const set = new Set<string>();
  for (let at = 0; at < joined.length; at += FINGERPRINT_CHARS)
    set.add(joined.slice(at, at + FINGERPRINT_CHARS));
  return set;
};

/** People the directory shows: not suspended or archived, and not hidden from the Global Address List. */
const listed = (user: admin_directory_v1.Schema$User) =>
  Boolean(user.id && user.primaryEmail) &&
  !user.suspended &&
  !user.archived &&
  user.includeInGlobalAddressList !== false;

async function managerName(
  directory: admin_directory_v1.Admin,
  names: Map<string, Promise<string | undefined>>,
  email: string,
): Promise<string | undefined> {
  let name = names.get(email);
  if (!name) {
    name = call(directory.users.get({ userKey: email, fields: 'name(fullName)' })).then(
      (user) => user.name?.fullName ?? undefined,
      (error: unknown) => {
        // A manager who left keeps no name to show; the rest of the person still counts.
        if (error instanceof NotFoundError) return undefined;
        throw error;
      },
    );
    names.set(email, name);
  }
  return name;
}

async function documentOf(
  directory: admin_directory_v1.Admin,
  names: Map<string, Promise<string | undefined>>,
  user: admin_directory_v1.Schema$User,
): Promise<SourceDocument> {
  const email = user.primaryEmail ?? '';
  const organizations = organizationsSchema.parse(user.organizations ?? []);
  const organization = organizations.find((entry) => entry.primary) ?? organizations[0];
  const location = organization?.location ?? locationsSchema.parse(user.locations ?? [])[0]?.area;
  const managerEmail = relationsSchema
    .parse(user.relations ?? [])
    .find((entry) => entry.type === 'manager')?.value;
  const manager = managerEmail ? await managerName(directory, names, managerEmail.toLowerCase()) : undefined;
  const name = user.name?.fullName || email;
  const fields: [string, string | undefined][] = [
    ['Name', name],
    ['Email', email],
    ['Title', organization?.title],
    ['Department', organization?.department],
    ['Location', location],
    ['Manager', manager],
  ];
  const created = new Date(user.creationTime ?? 0);
  return {
    externalId: user.id ?? '',
    title: name,
    // The person's page in the Admin console; members reach people through Scout's own profile cards.
    url: `https://admin.google.com/ac/users/${encodeURIComponent(user.id ?? '')}`,
    body: fields.flatMap(([label, value]) => (value ? [`${label}: ${value}`] : [])).join('\n'),
    author: { name, email },
    objectType: ObjectType.Contacts,
    fileType: 'person',
    createdTime: created,
    modifiedTime: created,
    // The Workspace directory is open to everyone in it.
    acl: [ORG_PRINCIPAL],
    extra: Object.fromEntries(
      [
        ['email', email],
        ['title', organization?.title],
        ['department', organization?.department],
        ['location', location],
        ['manager', manager],
      ].filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
    ),
  };
}

async function* people(ctx: GoogleContext, from: DirectoryCursor): AsyncGenerator<SyncBatch> {
  const directory = directoryApi(ctx);
  const known = fingerprintsIn(from.listed);
  const names = new Map<string, Promise<string | undefined>>();
  let { seen, pageToken } = from;
  do {
    const page = await call(
      directory.users.list({
        customer: 'my_customer',
        orderBy: 'email',
        maxResults: PAGE_SIZE,
        ...(pageToken ? { pageToken } : {}),
        fields: `nextPageToken,users(${USER_FIELDS})`,
      }),
    );
    const users = (page.users ?? []).filter(listed);
    const changed = users.filter((user) => !known.has(fingerprintOf(user)));
    seen += users.map(fingerprintOf).join('');
    pageToken = page.nextPageToken ?? null;
    const cursor: DirectoryCursor = pageToken
      ? { listed: from.listed, seen, pageToken }
      : { listed: seen, seen: '', pageToken: null };
    yield {
      documents: await Promise.all(changed.map((user) => documentOf(directory, names, user))),
      cursor,
    };
  } while (pageToken);
}

export const gworkspaceDirectoryConnector = defineConnector({
  shortname: 'gworkspace-directory',
  installPayload: 'oauth',
  credentialsSchema: googleCredentialsSchema,
  configSchema: googleConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  oauth: googleOAuth(DIRECTORY_SCOPES),
  // The Directory API allows 2,400 queries a minute per user; half of it for one connection. The Admin SDK's
  // quota is its own, apart from Drive's, Gmail's and Calendar's, so it keeps its own vendor.
  limits: { concurrency: 4, rate: { requests: 20, intervalMs: 1_000 } },

  async validate(ctx) {
    // Only an administrator may list the directory, which is what this connection needs.
    const page = await call(
      directoryApi(ctx).users.list({ customer: 'my_customer', maxResults: 1, fields: 'users(primaryEmail)' }),
    );
    const domain = page.users?.[0]?.primaryEmail?.split('@')[1];
    return domain ? { workspaceName: domain } : {};
  },

  fullSync: (ctx) => people(ctx, { listed: '', seen: '', pageToken: null }),

  incrementalSync: (ctx, cursor) => people(ctx, cursorSchema.parse(cursor)),

  async *listIds(ctx) {
    const directory = directoryApi(ctx);
    let pageToken: string | undefined;
    do {
      const page = await call(
        directory.users.list({
          customer: 'my_customer',
          orderBy: 'email',
          maxResults: 500,
          pageToken,
          fields: `nextPageToken,users(${USER_FIELDS})`,
        }),
      );
      yield (page.users ?? []).filter(listed).flatMap((user) => user.id ?? []);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  },

  permissions: (ctx) => directoryGroups(ctx),
});
