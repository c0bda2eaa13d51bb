// Microsoft Graph for the apps that index drives: SharePoint document libraries and OneDrive. An org connection
// reads the tenant with an app-only token (connectors/microsoft/app-only.ts), an individual one what the member may
// read with their delegated token; both the same way. Content comes from delta queries per drive (the deltaLink is
// the cursor), readers from each item's permissions, and group members from Entra ID.
import { z } from 'zod';
import type { AppShortname } from '../../common/catalogue';
import { microsoft } from '../../common/strings';
import {
  FatalSourceError,
  HttpStatusError,
  NotFoundError,
  ORG_PRINCIPAL,
  PermissionMismatchError,
  groupPrincipal,
  userPrincipal,
  type DocumentAcl,
  type GroupMembership,
  type ConnectorContext,
  type Principal,
  type RequestLimits,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import {
  DIRECTORY_PAGE,
  Graph,
  tenantCredentialsSchema,
  type TenantConfig,
  type TenantContext,
} from '../microsoft/app-only';
import {
  graphClient,
  graphCredentialsSchema,
  odataPageSchema,
  type GraphCredentials,
} from '../microsoft/graph';

/**
 * SharePoint and OneDrive are one service to Microsoft's throttling ("Avoid getting throttled or blocked in
 * SharePoint Online", which Graph's throttling page names for files and lists): it meters resource units per app per
 * tenant (1,250 a minute on tenants of up to 1,000 licences) and per tenant for all apps (18,750 per 5 minutes),
 * whichever drive or site a request reads. So both apps name one vendor and an org's connections of either share one
 * limiter, and a 429 or 503 Retry-After on one holds the other back too. No request rate: a Graph request costs 1
 * to 5 units (5 with permissions) and the budget grows with the licence count, which the connector cannot see, so
 * the shared pause on Microsoft's own Retry-After is what paces them.
 */
export const SHAREPOINT_ONLINE: { readonly vendor: string; readonly limits: RequestLimits } = {
  vendor: 'sharepoint-online',
  limits: { concurrency: 4 },
};

/** Change-free delta pages folded into one batch at most. */
const QUIET_PAGES = 50;

/** What the drive sync reads of a context, whichever kind of connection it is. */
type GraphContext = ConnectorContext<unknown, unknown>;

/** A member's OAuth tokens (individual connection), or the tenant's admin consent (org connection). */
export const driveCredentialsSchema = z.union([graphCredentialsSchema, tenantCredentialsSchema]);
export type DriveContext = ConnectorContext<z.output<typeof driveCredentialsSchema>, TenantConfig>;

export const isOrgDrive = (ctx: DriveContext): ctx is TenantContext => 'marketplace' in ctx.credentials;
const isMemberDrive = (ctx: DriveContext): ctx is ConnectorContext<GraphCredentials, TenantConfig> =>
  !('marketplace' in ctx.credentials);

/** Graph for `shortname` with the connection's token: the app-only one of the tenant, or the member's own. */
export function driveGraph(shortname: AppShortname) {
  return (ctx: DriveContext): Graph => {
    if (isMemberDrive(ctx))
      return new Graph(ctx, shortname, graphClient(ctx, microsoft.ADMIN_CONSENT_REQUIRED));
    if (isOrgDrive(ctx)) return Graph.appOnly(ctx, shortname);
    throw new FatalSourceError(`${shortname}: credentials of neither a member nor a tenant`);
  };
}

// ── Graph's documented shapes, as much of them as the connectors read ─────────────────────────────────────

const identitySchema = z.object({ id: z.string().nullish(), displayName: z.string().nullish() });
const sharePointIdentitySchema = identitySchema.extend({ loginName: z.string().nullish() });
const identitySetSchema = z.object({
  user: sharePointIdentitySchema.nullish(),
  group: identitySchema.nullish(),
  siteUser: sharePointIdentitySchema.nullish(),
  siteGroup: sharePointIdentitySchema.nullish(),
});
const permissionSchema = z.object({
  id: z.string(),
  roles: z.array(z.string()).nullish(),
  grantedToV2: identitySetSchema.nullish(),
  grantedToIdentitiesV2: z.array(identitySetSchema).nullish(),
  link: z.object({ scope: z.string().nullish(), type: z.string().nullish() }).nullish(),
  inheritedFrom: z.object({ id: z.string().nullish() }).nullish(),
});
export type GraphPermission = z.output<typeof permissionSchema>;

const driveItemSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  webUrl: z.string().nullish(),
  createdDateTime: z.iso.datetime({ offset: true }).nullish(),
  lastModifiedDateTime: z.iso.datetime({ offset: true }).nullish(),
  createdBy: z.object({ user: identitySchema.nullish() }).nullish(),
  file: z.object({ mimeType: z.string().nullish() }).nullish(),
  size: z.number().nullish(),
  deleted: z.object({ state: z.string().nullish() }).nullish(),
  parentReference: z
    .object({ driveId: z.string().nullish(), id: z.string().nullish(), path: z.string().nullish() })
    .nullish(),
});
type DriveItem = z.output<typeof driveItemSchema>;

const deltaPageSchema = odataPageSchema(driveItemSchema);
const directoryUserSchema = z.object({
  id: z.string(),
  mail: z.string().nullish(),
  userPrincipalName: z.string().nullish(),
});
const groupSchema = z.object({ id: z.string() });

// ── Permissions ─────────────────────────────────────────────────────────────────────────────────────────

/** A SharePoint claims login ('i:0#.f|membership|ada@contoso.com') ends with the user's sign-in name. */
function loginEmail(loginName: string | null | undefined): string | undefined {
  const name = loginName?.split('|').at(-1);
  return name && z.email().safeParse(name).success ? name : undefined;
}

/**
 * Who may read an item, from its permissions (Graph lists an item's effective ones: its own and those it inherits
 * from its folders and library). Every role reads. A link for the organisation, or for anyone (the spec makes no
 * document public), is the organisation; a link for specific people is those people. A SharePoint site group is a
 * principal of its own, named within `library` (the drive or list holding the item): Graph cannot list its
 * members, so it admits nobody and the item stays hidden from its members unless another grant admits them (fail
 * closed).
 */
export function aclOf(
  shortname: AppShortname,
  library: string,
  permissions: readonly GraphPermission[],
  directory: ReadonlyMap<string, string>,
): Principal[] {
  const readers = new Set<Principal>();
  const identity = (set: z.output<typeof identitySetSchema> | null | undefined) => {
    if (!set) return;
    if (set.group?.id) readers.add(groupPrincipal(shortname, set.group.id));
    if (set.siteGroup?.id) readers.add(groupPrincipal(shortname, `sitegroup:${library}:${set.siteGroup.id}`));
    for (const person of [set.user, set.siteUser]) {
      const email = (person?.id ? directory.get(person.id) : undefined) ?? loginEmail(person?.loginName);
      if (email) readers.add(userPrincipal(email));
    }
  };
  for (const permission of permissions) {
    const scope = permission.link?.scope;
    if (scope === 'organization' || scope === 'anonymous') readers.add(ORG_PRINCIPAL);
    else if (permission.link) for (const set of permission.grantedToIdentitiesV2 ?? []) identity(set);
    else identity(permission.grantedToV2);
  }
  return [...readers];
}

/**
 * What Graph lists at `path`, a driveItem's `/permissions`: undefined when the item is gone (404), null when Graph
 * refuses the listing or answers it in a shape we do not read, so the item's readers are unknown.
 */
export async function itemPermissions(
  graph: Graph,
  path: string,
): Promise<GraphPermission[] | null | undefined> {
  const permissions: GraphPermission[] = [];
  try {
    for await (const batch of graph.pages(path, permissionSchema)) permissions.push(...batch);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    // One item Graph will not show the sharing of (403 on it alone, or an answer we cannot read) must not stop
    // the sync: it is hidden instead.
    if (
      error instanceof HttpStatusError ||
      error instanceof PermissionMismatchError ||
      error instanceof FatalSourceError
    )
      return null;
    throw error;
  }
  return permissions;
}

/**
 * An item's readers now. A listing Graph refuses (not a 404: the item is there) leaves the item readable by
 * nobody until it can be read again; a 404 answers undefined, the item being gone.
 */
async function readersOf(graph: Graph, driveId: string, itemId: string): Promise<Principal[] | undefined> {
  const path = `/drives/${encodeURIComponent(driveId)}/items/${encodeURIComponent(itemId)}/permissions`;
  const permissions = await itemPermissions(graph, path);
  if (permissions === undefined) return undefined;
  if (permissions === null) return [];
  return aclOf(graph.shortname, driveId, permissions, await graph.directory());
}

/** Entra ID groups with their members, nested groups flattened by Graph's transitiveMembers. */
async function* groupMemberships(graph: Graph): AsyncGenerator<GroupMembership[]> {
  const directory = await graph.directory();
  for await (const groups of graph.pages('/groups', groupSchema, { $select: 'id', $top: DIRECTORY_PAGE })) {
    const memberships: GroupMembership[] = [];
    for (const group of groups) {
      const members = new Set<ReturnType<typeof userPrincipal>>();
      const path = `/groups/${encodeURIComponent(group.id)}/transitiveMembers/microsoft.graph.user`;
      const pages = graph.pages(path, directoryUserSchema, {
        $select: 'id,mail,userPrincipalName',
        $top: DIRECTORY_PAGE,
      });
      for await (const users of pages) {
        for (const user of users) {
          const email = directory.get(user.id);
          if (email) members.add(userPrincipal(email));
        }
      }
      memberships.push({ group: groupPrincipal(graph.shortname, group.id), members: [...members] });
    }
    yield memberships;
  }
}

// ── Drives ──────────────────────────────────────────────────────────────────────────────────────────────

/** A drive to index and the name its files' paths start with ('Engineering / Documents'). */
export interface DriveRef {
  readonly id: string;
  readonly name: string;
}

/** Where each drive's delta stands: the link to fetch next (nextLink mid-way, deltaLink after), null to start. */
const driveCursorSchema = z.object({
  v: z.literal(1),
  drives: z.array(z.object({ id: z.string(), link: z.string().nullable() })),
});
type DriveCursor = z.output<typeof driveCursorSchema>;

const externalIdOf = (driveId: string, itemId: string) => `${driveId}:${itemId}`;

function splitExternalId(externalId: string): { driveId: string; itemId: string } | undefined {
  const at = externalId.indexOf(':');
  if (at <= 0 || at === externalId.length - 1) return undefined;
  return { driveId: externalId.slice(0, at), itemId: externalId.slice(at + 1) };
}

/** 'report.final.DOCX' → 'docx'; a name without one → 'file'. */
function fileTypeOf(name: string): string {
  const extension = /\.([A-Za-z0-9][A-Za-z0-9+-]*)$/.exec(name)?.[1]?.toLowerCase();
  return extension ?? 'file';
}

/** '/drives/b!x/root:/Specs/2025' → 'Specs / 2025'; the root itself → ''. */
function folderPath(path: string | null | undefined): string {
  const inDrive = path?.split('root:')[1] ?? '';
  return decodeURIComponent(inDrive)
    .split('/')
    .filter((part) => part !== '')
    .join(' / ');
}

/**
 * The file's text as Scout's parsers read it, or null (a format they do not read, too large, unreadable, or a
 * download Graph refuses for this item alone). Undefined when the file is gone.
 */
async function fileText(
  ctx: GraphContext,
  graph: Graph,
  driveId: string,
  item: DriveItem & { name: string },
): Promise<string | null | undefined> {
  const path = `/drives/${encodeURIComponent(driveId)}/items/${encodeURIComponent(item.id)}/content`;
  try {
    return await ctx.files.parse(
      {
        name: item.name,
        ...(item.file?.mimeType ? { mimeType: item.file.mimeType } : {}),
        ...(typeof item.size === 'number' ? { size: item.size } : {}),
      },
      (limits) => graph.download(path, limits),
    );
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    // As for its sharing: one file Graph will not hand over (403 on it alone) is indexed without its text.
    if (error instanceof HttpStatusError || error instanceof PermissionMismatchError) return null;
    throw error;
  }
}

/**
 * A file as a document. Delta leaves out `parentReference.path`, so the item is read once more for its folder path
 * (a move changes it); its body is its path, then its text where Scout's parsers read it. Answers undefined for an
 * item gone since the delta listed it.
 */
async function toDocument(
  ctx: GraphContext,
  graph: Graph,
  drive: DriveRef,
  listed: DriveItem,
): Promise<SourceDocument | undefined> {
  let item: DriveItem;
  try {
    item = await graph.json(
      `/drives/${encodeURIComponent(drive.id)}/items/${encodeURIComponent(listed.id)}`,
      driveItemSchema,
      {
        query: {
          $select: 'id,name,webUrl,createdDateTime,lastModifiedDateTime,createdBy,file,size,parentReference',
        },
      },
    );
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
  const acl = await readersOf(graph, drive.id, item.id);
  if (acl === undefined) return undefined;
  const name = item.name || 'Untitled';
  const path = [drive.name, folderPath(item.parentReference?.path), name]
    .filter((part) => part !== '')
    .join(' / ');
  const modified = new Date(item.lastModifiedDateTime ?? 0);
  const url = item.webUrl && /^https?:/.test(item.webUrl) ? item.webUrl : undefined;
  if (!url) return undefined;
  const text = await fileText(ctx, graph, drive.id, { ...item, name });
  if (text === undefined) return undefined;
  return {
    externalId: externalIdOf(drive.id, item.id),
    title: name,
    url,
    body: text ? `${path}\n\n${text}` : path,
    author: item.createdBy?.user?.displayName ? { name: item.createdBy.user.displayName } : {},
    objectType: 'Files',
    fileType: fileTypeOf(name),
    createdTime: new Date(item.createdDateTime ?? modified),
    modifiedTime: modified,
    acl,
    extra: { path, drive: drive.name },
    ...(item.parentReference?.id
      ? { parentExternalId: externalIdOf(drive.id, item.parentReference.id) }
      : {}),
  };
}

const deltaPath = (driveId: string) => `/drives/${encodeURIComponent(driveId)}/root/delta`;

/**
 * One drive's delta from `link` (null: the whole drive), a page at a time. Graph answers 410 when a delta token
 * is too old to follow: the drive is enumerated again, and pruning removes what went missing meanwhile.
 */
async function* deltaPages(graph: Graph, driveId: string, link: string | null) {
  let next = link ?? deltaPath(driveId);
  for (;;) {
    let answer: z.output<typeof deltaPageSchema>;
    try {
      answer = await graph.json(next, deltaPageSchema);
    } catch (error) {
      if (error instanceof NotFoundError && error.status === 410 && next !== deltaPath(driveId)) {
        next = deltaPath(driveId);
        continue;
      }
      throw error;
    }
    const more = answer['@odata.nextLink'];
    const following = more ?? answer['@odata.deltaLink'];
    if (following === undefined)
      throw new FatalSourceError('Graph delta answered neither nextLink nor deltaLink');
    yield { items: answer.value, link: following, done: more === undefined };
    if (more === undefined) return;
    next = more;
  }
}

/**
 * Follows every drive's delta once from where the cursor left it (a drive new to the cursor from the start). Each
 * batch's cursor holds every drive's link, so any batch is a checkpoint; following a deltaLink again after a
 * resume only finds what changed since. Pages without changes are folded into the next batch (up to
 * QUIET_PAGES of them), so a tenant of thousands of quiet OneDrives does not commit a batch per drive. Files last
 * changed before the three-year window are left out. Progress is the share of drives done.
 */
async function* syncDrives(
  ctx: GraphContext,
  graph: Graph,
  drives: readonly DriveRef[],
  cursor: DriveCursor | null,
): AsyncGenerator<SyncBatch> {
  const saved = new Map(cursor?.drives.map((drive) => [drive.id, drive.link]));
  const state: DriveCursor = {
    v: 1,
    drives: drives.map((drive) => ({ id: drive.id, link: saved.get(drive.id) ?? null })),
  };
  if (drives.length === 0) {
    yield { documents: [], cursor: state, progress: { share: 1 } };
    return;
  }
  let quiet = 0;
  for (const [index, drive] of drives.entries()) {
    const entry = state.drives[index]!;
    for await (const delta of deltaPages(graph, drive.id, entry.link)) {
      ctx.signal.throwIfAborted();
      const deleted = delta.items
        .filter((item) => item.deleted)
        .map((item) => externalIdOf(drive.id, item.id));
      const files = delta.items.filter(
        (item) =>
          !item.deleted && item.file && new Date(item.lastModifiedDateTime ?? 0) >= ctx.syncWindowStart,
      );
      // In parallel: the connection's limiter keeps the requests in flight within its concurrency.
      const read = await Promise.all(files.map((item) => toDocument(ctx, graph, drive, item)));
      const documents = read.filter((document) => document !== undefined);
      for (const [at, document] of read.entries())
        if (document === undefined) deleted.push(externalIdOf(drive.id, files[at]!.id));
      entry.link = delta.link;
      const last = index === drives.length - 1 && delta.done;
      if (documents.length === 0 && deleted.length === 0 && !last && ++quiet < QUIET_PAGES) continue;
      quiet = 0;
      yield {
        documents,
        deletedExternalIds: deleted,
        cursor: structuredClone(state),
        progress: { share: (index + (delta.done ? 1 : 0)) / drives.length },
      };
    }
  }
}

/** Every file id of the drives, whatever its age (extra ids are harmless to pruning, missing ones are not). */
async function* driveIds(graph: Graph, drives: readonly DriveRef[]): AsyncGenerator<string[]> {
  for (const drive of drives) {
    for await (const delta of deltaPages(graph, drive.id, null)) {
      yield delta.items
        .filter((item) => item.file && !item.deleted)
        .map((item) => externalIdOf(drive.id, item.id));
    }
  }
}

/** The current readers of indexed files, one permissions listing each; files gone are left out. */
async function driveAcls(graph: Graph, externalIds: readonly string[]): Promise<DocumentAcl[]> {
  const answers: DocumentAcl[] = [];
  for (const externalId of externalIds) {
    const ref = splitExternalId(externalId);
    if (!ref) continue;
    const acl = await readersOf(graph, ref.driveId, ref.itemId);
    if (acl !== undefined) answers.push({ externalId, acl });
  }
  return answers;
}

/**
 * The two halves every drive app shares: incrementalSync restarts from scratch on a cursor it cannot read, and
 * otherwise re-lists the drives (new ones start from the beginning; gone ones are pruned).
 */
export function driveSync<Context extends GraphContext>(
  graphOf: (ctx: Context) => Graph,
  listDrives: (graph: Graph, ctx: Context) => Promise<DriveRef[]>,
) {
  return {
    async *fullSync(ctx: Context) {
      const graph = graphOf(ctx);
      yield* syncDrives(ctx, graph, await listDrives(graph, ctx), null);
    },
    async *incrementalSync(ctx: Context, saved: unknown) {
      const graph = graphOf(ctx);
      const cursor = driveCursorSchema.safeParse(saved);
      if (!cursor.success)
        ctx.logger.warn({ connector: graph.shortname }, 'unreadable cursor, running a full sync');
      yield* syncDrives(ctx, graph, await listDrives(graph, ctx), cursor.success ? cursor.data : null);
    },
    async *listIds(ctx: Context) {
      const graph = graphOf(ctx);
      yield* driveIds(graph, await listDrives(graph, ctx));
    },
    permissions(ctx: Context) {
      return groupMemberships(graphOf(ctx));
    },
    documentAcls(ctx: Context, externalIds: readonly string[]) {
      return driveAcls(graphOf(ctx), externalIds);
    },
  };
}
