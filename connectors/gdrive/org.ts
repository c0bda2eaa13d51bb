// Drive's org connection (the Workspace admin's marketplace install, spec §7): the service account acts as each
// active member in turn (domain-wide delegation) to read their My Drive and what is shared with them through their
// own change feed, and reads each shared drive once, as one of its members, through the drive's change feed.
//
// A file shared between members is in several feeds but is one document: its readers come from its own permissions,
// never from whose feed carried it. A file is therefore indexed from its owner's feed when its owner is an active
// member (the owner may always read its sharing, and sees every change to it); a file owned outside the Workspace
// from the feed of any member who may read its sharing. A file gone from one member's feed (unshared from them,
// or deleted) is looked up again before anything is removed: it is deleted only when no member can open it.
import type { drive_v3 } from '@googleapis/drive';
import { z } from 'zod';
import {
  FatalSourceError,
  NotFoundError,
  type ConnectionIdentity,
  type DocumentAcl,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { actingAs, call, driveApi, isDelegated, type GoogleContext } from '../google/api';
import { DIRECTORY_USERS_SCOPE, workspaceMembers } from '../google/members';
import { UnknownMemberError } from '../google/service-account';
import { readersOf } from './acl';
import {
  FILE_FIELDS,
  FOLDER,
  PAGE_SIZE,
  cursorSchema as placeSchema,
  dedupe,
  documentOf,
  filesUnder,
  inScope,
  listingQuery,
  permissionsOf,
  type DriveCursor,
  type Run,
} from './files';

export const DRIVE_READONLY_SCOPE = 'https://www.googleapis.com/auth/drive.readonly';
export const DIRECTORY_GROUPS_SCOPE = 'https://www.googleapis.com/auth/admin.directory.group.readonly';
/** What the super admin grants Scout's service account in the Admin console's domain-wide delegation. */
export const DRIVE_ORG_SCOPES = [
  DRIVE_READONLY_SCOPE,
  DIRECTORY_GROUPS_SCOPE,
  DIRECTORY_USERS_SCOPE,
] as const;

/**
 * Where an org pass stands: each member's and each shared drive's place in its own listing or change feed, and
 * the files some feed reported gone, to be looked up before the pass ends. Members and drives no longer in the
 * Workspace drop out; pruning removes what only they held.
 */
const orgCursorSchema = z.object({
  v: z.literal(1),
  members: z.record(z.string(), placeSchema),
  drives: z.record(z.string(), placeSchema),
  recheck: z.array(z.string()),
});
type OrgCursor = z.output<typeof orgCursorSchema>;

/** One pass of an org connection: who is in the Workspace, and a Drive client acting as each of them. */
interface OrgRun {
  readonly ctx: GoogleContext;
  readonly admin: string;
  readonly orgDomain: string;
  /** Active members, the admin first: the order in which a file gone from a feed is looked up. */
  readonly members: readonly string[];
  readonly runs: Map<string, Run>;
}

function adminOf(ctx: GoogleContext): string {
  if (!isDelegated(ctx)) throw new FatalSourceError('an individual connection has no Workspace admin');
  return ctx.credentials.email.toLowerCase();
}

async function startOrgRun(ctx: GoogleContext): Promise<OrgRun> {
  const admin = adminOf(ctx);
  const members = await workspaceMembers(ctx);
  return {
    ctx,
    admin,
    // The admin's domain is the Workspace's: a domain grant to it reaches every member.
    orgDomain: admin.split('@')[1] ?? '',
    members: [admin, ...members.filter((member) => member !== admin)],
    runs: new Map(),
  };
}

function runAs(org: OrgRun, member: string): Run {
  let run = org.runs.get(member);
  if (!run) {
    const ctx = actingAs(org.ctx, member, [DRIVE_READONLY_SCOPE]);
    run = { ctx, drive: driveApi(ctx), orgDomain: org.orgDomain, folders: new Map() };
    org.runs.set(member, run);
  }
  return run;
}

/** The file's owner when the owner is an active member (only My Drive files have one). */
function memberOwner(org: OrgRun, file: drive_v3.Schema$File): string | null {
  const owner = file.owners?.[0]?.emailAddress?.toLowerCase();
  return owner && org.members.includes(owner) ? owner : null;
}

/**
 * The file as a document read through `run`, or 'unreadable' when `run` may not read its sharing (a member who
 * can only view it), or null when it vanished meanwhile.
 */
async function documentVia(
  run: Run,
  file: drive_v3.Schema$File,
): Promise<SourceDocument | null | 'unreadable'> {
  const permissions = await permissionsOf(run, file);
  if (permissions === null) return 'unreadable';
  return documentOf(run, { ...file, permissions });
}

/** A shared drive's feed, or a member's (My Drive and files shared with them). */
interface Feed {
  readonly run: Run;
  /** The member whose feed it is; null for a shared drive's. */
  readonly member: string | null;
  readonly driveId: string | null;
}

/** What a page of a feed adds: documents, files deleted for everyone, and files to look up again. */
interface Step {
  readonly documents: SourceDocument[];
  readonly deleted: string[];
  readonly recheck: string[];
}

/**
 * The documents of files a feed carried. A member's feed skips files an active member owns unless they are that
 * owner (the owner's feed carries them); a file whose sharing the member may not read is looked up again later.
 * Under a changed folder (`underFolder`), a file owned by another member is read as that owner now, since its
 * owner's feed reports the folder's change, not the file's.
 */
async function documentsFrom(
  org: OrgRun,
  feed: Feed,
  files: readonly drive_v3.Schema$File[],
  underFolder = false,
): Promise<Step> {
  const step: Step = { documents: [], deleted: [], recheck: [] };
  await Promise.all(
    files.map(async (file) => {
      let run = feed.run;
      if (feed.member !== null) {
        const owner = memberOwner(org, file);
        if (owner !== null && owner !== feed.member) {
          if (!underFolder) return;
          run = runAs(org, owner);
        }
      }
      const document = await documentVia(run, file);
      if (document === 'unreadable') step.recheck.push(file.id ?? '');
      else if (document !== null) step.documents.push(document);
    }),
  );
  return step;
}

function listParams(feed: Feed) {
  return feed.driveId
    ? { corpora: 'drive', driveId: feed.driveId, includeItemsFromAllDrives: true, supportsAllDrives: true }
    : { corpora: 'user' };
}

function changeParams(feed: Feed) {
  return feed.driveId
    ? { driveId: feed.driveId, includeItemsFromAllDrives: true, supportsAllDrives: true }
    : { spaces: 'drive' };
}

/** A feed from `at` (null: from the start, listing first), a page at a time, with its place after each page. */
async function* feedPages(
  org: OrgRun,
  feed: Feed,
  at: DriveCursor | null,
): AsyncGenerator<Step & { place: DriveCursor }> {
  if (at === null || at.phase === 'list') {
    let changesToken = at?.changesToken;
    if (changesToken === undefined) {
      // Taken before the listing begins, so nothing changed meanwhile is missed.
      const start = await call(
        feed.run.drive.changes.getStartPageToken(
          feed.driveId ? { driveId: feed.driveId, supportsAllDrives: true } : {},
        ),
      );
      if (!start.startPageToken) throw new FatalSourceError('Drive answered no start page token');
      changesToken = start.startPageToken;
    }
    let pageToken = at?.pageToken;
    do {
      const page = await call(
        feed.run.drive.files.list({
          ...listParams(feed),
          q: listingQuery(feed.run.ctx),
          orderBy: 'modifiedTime desc',
          pageSize: PAGE_SIZE,
          pageToken,
          fields: `nextPageToken,files(${FILE_FIELDS})`,
        }),
      );
      pageToken = page.nextPageToken ?? undefined;
      yield {
        ...(await documentsFrom(org, feed, page.files ?? [])),
        place: pageToken ? { phase: 'list', pageToken, changesToken } : { phase: 'changes', changesToken },
      };
    } while (pageToken);
    return;
  }
  let token = at.changesToken;
  for (;;) {
    const page = await call(
      feed.run.drive.changes.list({
        ...changeParams(feed),
        pageToken: token,
        includeRemoved: true,
        pageSize: PAGE_SIZE,
        fields: `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,file(${FILE_FIELDS}))`,
      }),
    );
    const next = page.nextPageToken ?? page.newStartPageToken;
    if (!next) throw new FatalSourceError('Drive answered a page of changes without a page token');
    const files: drive_v3.Schema$File[] = [];
    const folders: string[] = [];
    const step: Step = { documents: [], deleted: [], recheck: [] };
    for (const change of page.changes ?? []) {
      if (change.changeType === 'drive' || !change.fileId) continue;
      const file = change.file;
      // Gone from this feed only says this member (or drive) lost it; others may still hold it.
      if (change.removed || !file) step.recheck.push(change.fileId);
      else if (file.mimeType === FOLDER) folders.push(change.fileId);
      // Trash and age are the file's own, the same in every feed.
      else if (!inScope(feed.run.ctx, file)) step.deleted.push(change.fileId);
      else files.push(file);
    }
    const placed = await documentsFrom(org, feed, files);
    step.documents.push(...placed.documents);
    step.recheck.push(...placed.recheck);
    for (const folderId of folders) {
      feed.run.folders.delete(folderId);
      for await (const under of filesUnder(feed.run, folderId)) {
        const inFolder = await documentsFrom(org, feed, under, true);
        step.documents.push(...inFolder.documents);
        step.recheck.push(...inFolder.recheck);
      }
    }
    yield { ...step, documents: dedupe(step.documents), place: { phase: 'changes', changesToken: next } };
    if (!page.nextPageToken) return;
    token = page.nextPageToken;
  }
}

/**
 * The file as an active member can open it, looked up as each member in turn (the admin first), then read as its
 * owner when an active member owns it, since only someone who may share a file may read its sharing. Null when no
 * member can open it. A lookup costs up to one request per member, so only files that left a feed take it.
 */
async function locate(org: OrgRun, fileId: string): Promise<{ run: Run; file: drive_v3.Schema$File } | null> {
  for (const member of org.members) {
    const run = runAs(org, member);
    let file: drive_v3.Schema$File;
    try {
      file = await call(run.drive.files.get({ fileId, supportsAllDrives: true, fields: FILE_FIELDS }));
    } catch (error) {
      // Drive answers 404 for a file the member may not open.
      if (error instanceof NotFoundError || error instanceof UnknownMemberError) continue;
      throw error;
    }
    const owner = memberOwner(org, file);
    return { run: owner !== null ? runAs(org, owner) : run, file };
  }
  return null;
}

/** The files some feed reported gone, as they are now: re-read for their current readers, or deleted. */
async function recheckStep(org: OrgRun, fileIds: readonly string[]): Promise<Step> {
  const step: Step = { documents: [], deleted: [], recheck: [] };
  await Promise.all(
    fileIds.map(async (fileId) => {
      const found = await locate(org, fileId);
      if (found === null || !inScope(org.ctx, found.file)) {
        step.deleted.push(fileId);
        return;
      }
      const document = await documentVia(found.run, found.file);
      // Nobody who may read its sharing is left: nobody may find it until someone is (fail closed).
      if (document === 'unreadable') step.deleted.push(fileId);
      else if (document !== null) step.documents.push(document);
    }),
  );
  return step;
}

/** Every shared drive of the Workspace, listed as its admin (useDomainAdminAccess), and a member to read it as. */
async function sharedDrives(org: OrgRun): Promise<{ id: string; reader: string }[]> {
  const admin = runAs(org, org.admin);
  const found: { id: string; reader: string }[] = [];
  let pageToken: string | undefined;
  do {
    const page = await call(
      admin.drive.drives.list({
        useDomainAdminAccess: true,
        pageSize: 100,
        pageToken,
        fields: 'nextPageToken,drives(id)',
      }),
    );
    for (const drive of page.drives ?? []) {
      if (!drive.id) continue;
      const reader = await driveReader(org, drive.id);
      if (reader !== null) found.push({ id: drive.id, reader });
      else org.ctx.logger.warn({ driveId: drive.id }, 'a shared drive has no active member to read it as');
    }
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return found;
}

/**
 * The active member a shared drive is read as: one named among its members, the ones who may share first, since the
 * admin may list a drive's members without belonging to it but not its files.
 */
async function driveReader(org: OrgRun, driveId: string): Promise<string | null> {
  const admin = runAs(org, org.admin);
  const named: drive_v3.Schema$Permission[] = [];
  let pageToken: string | undefined;
  do {
    const page = await call(
      admin.drive.permissions.list({
        fileId: driveId,
        useDomainAdminAccess: true,
        supportsAllDrives: true,
        pageSize: 100,
        pageToken,
        fields: 'nextPageToken,permissions(type,role,emailAddress)',
      }),
    );
    named.push(...(page.permissions ?? []));
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  // Whoever may share the drive's files may read their sharing.
  const SHARING = ['organizer', 'fileOrganizer', 'writer'];
  const rank = (role: string | null | undefined) => {
    const at = SHARING.indexOf(role ?? '');
    return at === -1 ? SHARING.length : at;
  };
  const reader = named
    .filter((permission) => permission.type === 'user')
    .sort((a, b) => rank(a.role) - rank(b.role))
    .map((permission) => permission.emailAddress?.toLowerCase() ?? '')
    .find((email) => org.members.includes(email));
  return reader ?? null;
}

/**
 * One pass over every member's feed and every shared drive's, then the files some feed reported gone. Every
 * batch's cursor holds every feed's place, so a stopped pass resumes at the page it stopped at. Progress is the
 * share of feeds done.
 */
async function* orgPass(ctx: GoogleContext, saved: OrgCursor | null): AsyncGenerator<SyncBatch> {
  const org = await startOrgRun(ctx);
  const drives = await sharedDrives(org);
  const state: OrgCursor = { v: 1, members: {}, drives: {}, recheck: [...(saved?.recheck ?? [])] };
  for (const member of org.members) {
    const at = saved?.members[member];
    if (at) state.members[member] = at;
  }
  for (const drive of drives) {
    const at = saved?.drives[drive.id];
    if (at) state.drives[drive.id] = at;
  }
  const feeds: { feed: Feed; places: Record<string, DriveCursor>; key: string }[] = [
    ...org.members.map((member) => ({
      feed: { run: runAs(org, member), member, driveId: null },
      places: state.members,
      key: member,
    })),
    ...drives.map((drive) => ({
      feed: { run: runAs(org, drive.reader), member: null, driveId: drive.id },
      places: state.drives,
      key: drive.id,
    })),
  ];
  for (const [index, { feed, places, key }] of feeds.entries()) {
    try {
      for await (const step of feedPages(org, feed, places[key] ?? null)) {
        places[key] = step.place;
        state.recheck = [...new Set([...state.recheck, ...step.recheck])];
        yield {
          documents: step.documents,
          deletedExternalIds: step.deleted,
          cursor: structuredClone(state),
          progress: { share: index / (feeds.length + 1) },
        };
      }
    } catch (error) {
      // Suspended or deleted since the Directory listed them: nothing of theirs is readable any more.
      if (!(error instanceof UnknownMemberError)) throw error;
      delete places[key];
      ctx.logger.info({ connector: 'gdrive' }, 'a member left the Workspace mid-sync');
    }
  }
  while (state.recheck.length > 0) {
    const batch = state.recheck.slice(0, PAGE_SIZE);
    const step = await recheckStep(org, batch);
    state.recheck = state.recheck.slice(batch.length);
    yield {
      documents: step.documents,
      deletedExternalIds: step.deleted,
      cursor: structuredClone(state),
      progress: { share: feeds.length / (feeds.length + 1) },
    };
  }
  yield { documents: [], cursor: structuredClone(state), progress: { share: 1 } };
}

export function orgFullSync(ctx: GoogleContext): AsyncIterable<SyncBatch> {
  return orgPass(ctx, null);
}

export function orgIncrementalSync(ctx: GoogleContext, cursor: unknown): AsyncIterable<SyncBatch> {
  const saved = orgCursorSchema.safeParse(cursor);
  if (!saved.success) ctx.logger.warn({ connector: 'gdrive' }, 'unreadable cursor, full sync');
  return orgPass(ctx, saved.success ? saved.data : null);
}

/** Every file some member or shared drive holds: a file only a departed member held is left out, and pruned. */
export async function* orgListIds(ctx: GoogleContext): AsyncGenerator<string[]> {
  const org = await startOrgRun(ctx);
  const feeds: Feed[] = [
    ...org.members.map((member) => ({ run: runAs(org, member), member, driveId: null })),
    ...(await sharedDrives(org)).map((drive) => ({
      run: runAs(org, drive.reader),
      member: null,
      driveId: drive.id,
    })),
  ];
  for (const feed of feeds) {
    let pageToken: string | undefined;
    try {
      do {
        const page = await call(
          feed.run.drive.files.list({
            ...listParams(feed),
            q: listingQuery(ctx),
            pageSize: 1000,
            pageToken,
            fields: 'nextPageToken,files(id)',
          }),
        );
        yield (page.files ?? []).flatMap((file) => file.id ?? []);
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
    } catch (error) {
      if (!(error instanceof UnknownMemberError)) throw error;
    }
  }
}

/** The current readers of indexed files, each read as someone who may read its sharing; nobody if none may. */
export async function orgDocumentAcls(
  ctx: GoogleContext,
  externalIds: readonly string[],
): Promise<DocumentAcl[]> {
  const org = await startOrgRun(ctx);
  const answers = await Promise.all(
    externalIds.map(async (externalId): Promise<DocumentAcl | null> => {
      const found = await locate(org, externalId);
      if (found === null || !inScope(ctx, found.file)) return null;
      const permissions = await permissionsOf(found.run, found.file);
      return { externalId, acl: permissions === null ? [] : readersOf(permissions, org.orgDomain) };
    }),
  );
  return answers.filter((answer): answer is DocumentAcl => answer !== null);
}

/** Groups named in sharing, read from the Directory as the admin. */
export function orgGroupsContext(ctx: GoogleContext): GoogleContext {
  return actingAs(ctx, adminOf(ctx), [DIRECTORY_GROUPS_SCOPE]);
}

/** Only an admin may list the Directory; the admin's own Drive proves Drive's scope was delegated. */
export async function validateOrg(ctx: GoogleContext): Promise<ConnectionIdentity> {
  const org = await startOrgRun(ctx);
  await call(runAs(org, org.admin).drive.about.get({ fields: 'user(emailAddress)' }));
  return { email: org.admin, appUserId: org.admin, workspaceName: org.orgDomain };
}
