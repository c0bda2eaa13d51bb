// A fake of Google Drive v3 and the Directory API's groups on 127.0.0.1, answering the documented shapes (typed
// with Google's SDK types, so an invented field does not compile): files.list with the query clauses the connector
// sends, files.get (and alt=media), files.export, permissions.list, drives.get, about.get, the change feed, and
// groups and members. Sharing is inherited as Drive inherits it: a file's permissions hold its folders' and, in a
// shared drive, the drive members' (marked inherited). Every mutation lands in the change feed as Drive reports it:
// a folder's move or reshare is one change of the folder, not of the files under it.
//
// With `workspace`, the fake is a whole Workspace's Drive read through a service account's delegated tokens: each
// request is answered as the member its token acts as. Each member then lists only what is theirs or shared with
// them (corpora=user) and the shared drives they belong to, reads sharing only where they may share, and has their
// own change feed: a file whose change leaves a member without access is reported to them as removed.
import type { admin_directory_v1 } from '@googleapis/admin';
import type { drive_v3 } from '@googleapis/drive';
import { notFound, pageOf, serveDirectory } from '../google/fake';
import { googleError } from '../google/fake-auth';
import { serveServiceAccountTokens, type FakeServiceAccount } from '../google/fake-service-account';
import { startFakeServer, type FakeRequest, type FakeServer } from '../sdk/fake-server';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';
export const DOC_MIME = 'application/vnd.google-apps.document';
export const SHEET_MIME = 'application/vnd.google-apps.spreadsheet';

export interface FakeFileInput {
  readonly id: string;
  readonly name: string;
  readonly mimeType: string;
  /** The parent folder's id, or a shared drive's id for its top level; none for My Drive's root. */
  readonly parent?: string;
  readonly driveId?: string;
  /** Text, or the bytes of a file Drive stores as is (a PDF, a Word document). */
  readonly content?: string | Uint8Array;
  /** The size files.get reports, when it should differ from the content's (a file too large to download). */
  readonly size?: number;
  /** Sharing set on the item itself; what it inherits is added. */
  readonly permissions?: readonly drive_v3.Schema$Permission[];
  readonly modifiedTime?: string;
  readonly owner?: string;
}

interface StoredFile {
  file: drive_v3.Schema$File;
  content: string | Uint8Array;
  own: drive_v3.Schema$Permission[];
  /** The account may not read its sharing (it is not allowed to share the file). */
  hiddenSharing: boolean;
}

export interface DriveFake {
  readonly server: FakeServer;
  readonly token: string;
  /** The service account the Workspace delegated to (a fake started with `workspace`). */
  readonly account: FakeServiceAccount | null;
  addFile(input: FakeFileInput): void;
  addDrive(id: string, name: string, members: readonly drive_v3.Schema$Permission[]): void;
  edit(id: string, content: string | Uint8Array): void;
  rename(id: string, name: string): void;
  move(id: string, parent: string): void;
  trash(id: string): void;
  share(id: string, permissions: readonly drive_v3.Schema$Permission[]): void;
  hideSharing(id: string): void;
  /** Deleted for good (not trashed): every feed that held it reports it removed. */
  remove(id: string): void;
  /** Ownership moves to `owner`; the previous owner keeps writer access, as Drive's transfer leaves it. */
  transfer(id: string, owner: string): void;
  /** Adds or replaces a Directory user (`workspace` only: also someone the service account may act as). */
  putUser(user: admin_directory_v1.Schema$User): void;
  /** Removes a user from the Directory; Google then issues no token acting as them, and their grants are deleted. */
  removeUser(email: string): void;
  addGroup(email: string, members: readonly admin_directory_v1.Schema$Member[]): void;
  setMembers(email: string, members: readonly admin_directory_v1.Schema$Member[]): void;
  /** Accepts only this bearer token from now on (a new access token after a refresh). */
  rotateToken(token: string): void;
  close(): Promise<void>;
}

const byteLength = (content: string | Uint8Array) =>
  typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;

/** A Workspace read through domain-wide delegation: its admin, and the scope Drive requests must carry. */
export interface FakeWorkspaceOptions {
  readonly admin: string;
  readonly driveScope: string;
}

/** Who could see a file before and after a change, for each member's own feed and each shared drive's. */
interface LoggedChange {
  readonly fileId: string;
  readonly before: ReadonlySet<string>;
  readonly driveBefore: string | undefined;
}

const SHARING_ROLES = new Set(['owner', 'organizer', 'fileOrganizer', 'writer']);

export async function startDriveFake(
  options: { user?: string; pageSize?: number; token?: string; workspace?: FakeWorkspaceOptions } = {},
): Promise<DriveFake> {
  const user = options.user ?? options.workspace?.admin ?? 'admin@acme.test';
  let token = options.token ?? 'ya29.fake-drive-token';
  const workspace = options.workspace;
  const server = await startFakeServer(workspace ? {} : { bearerToken: token });
  const account = workspace ? serveServiceAccountTokens(server) : null;
  const files = new Map<string, StoredFile>();
  const drives = new Map<string, { drive: drive_v3.Schema$Drive; members: drive_v3.Schema$Permission[] }>();
  const groupMembers = new Map<string, readonly admin_directory_v1.Schema$Member[]>();
  const directoryUsers = new Set<string>();
  const changeLog: LoggedChange[] = [];
  let clock = Date.parse('2025-05-01T00:00:00Z');
  const tick = () => new Date((clock += 60_000)).toISOString();

  /** Whether `email` is one of the people `permission` names, directly or through (nested) groups. */
  function names(permission: drive_v3.Schema$Permission, email: string, depth = 0): boolean {
    const named = permission.emailAddress?.toLowerCase();
    if (permission.type === 'user') return named === email;
    if (permission.type !== 'group' || !named || depth > 10) return false;
    return (groupMembers.get(named) ?? []).some(
      (member) =>
        member.status !== 'SUSPENDED' &&
        names(
          { type: member.type === 'GROUP' ? 'group' : 'user', emailAddress: member.email },
          email,
          depth + 1,
        ),
    );
  }

  /** The members whose own corpus holds the file: its owner and whoever it is shared with by name. */
  function audience(id: string): Set<string> {
    const stored = files.get(id);
    if (!stored || stored.file.driveId) return new Set();
    const permissions = effectivePermissions(id);
    return new Set([...directoryUsers].filter((email) => permissions.some((p) => names(p, email))));
  }

  const record = (id: string, before: ReadonlySet<string> = new Set(), driveBefore?: string) =>
    changeLog.push({ fileId: id, before, driveBefore });
  /** Runs a mutation of `id` and logs it with who could see the file before. */
  function logged(id: string, mutate: () => void) {
    const before = audience(id);
    const driveBefore = files.get(id)?.file.driveId ?? undefined;
    mutate();
    record(id, before, driveBefore);
  }

  /** The member a request acts as; null when its token was never issued or lacks Drive's scope. */
  function viewerOf(request: FakeRequest): string | null {
    if (!account || !workspace) return user;
    const holder = account.holderOf(request.headers.authorization);
    return holder?.scopes.includes(workspace.driveScope) ? holder.subject : null;
  }
  const isDriveMember = (driveId: string, email: string) =>
    drives.get(driveId)?.members.some((member) => names(member, email)) ?? false;
  /** Whether the viewer finds the file in their corpus (files.list, their change feed). */
  function listedFor(stored: StoredFile, viewer: string): boolean {
    if (!workspace) return true;
    const driveId = stored.file.driveId;
    return driveId ? isDriveMember(driveId, viewer) : audience(stored.file.id ?? '').has(viewer);
  }
  /** Whether the viewer may open the file by its id: listed, or shared with the whole domain or by link. */
  function openableBy(stored: StoredFile, viewer: string): boolean {
    if (listedFor(stored, viewer)) return true;
    return effectivePermissions(stored.file.id ?? '').some(
      (permission) =>
        permission.type === 'anyone' ||
        (permission.type === 'domain' && permission.domain === viewer.split('@')[1]),
    );
  }
  /** Whether the viewer may share the file, and so read its permissions. */
  function sharesFor(stored: StoredFile, viewer: string): boolean {
    if (stored.hiddenSharing) return false;
    if (!workspace) return true;
    const driveId = stored.file.driveId;
    const grants = driveId
      ? (drives.get(driveId)?.members ?? [])
      : effectivePermissions(stored.file.id ?? '');
    return grants.some((permission) => SHARING_ROLES.has(permission.role ?? '') && names(permission, viewer));
  }
  const unauthenticated = googleError(401, 'UNAUTHENTICATED', 'authError', 'Invalid Credentials');
  const fileNotFound = (id: string | undefined) => notFound(`File ${id}`);

  /** Own sharing, then each folder's up the tree (and the drive's members), as Drive lists a file's permissions. */
  function effectivePermissions(id: string): drive_v3.Schema$Permission[] {
    const stored = files.get(id);
    if (!stored) return [];
    const permissions = [...stored.own];
    let parent = stored.file.parents?.[0];
    for (let depth = 0; parent !== undefined && depth < 50; depth += 1) {
      const folder = files.get(parent);
      if (folder) permissions.push(...folder.own);
      const drive = drives.get(parent);
      if (drive)
        permissions.push(
          ...drive.members.map((member) => ({
            ...member,
            permissionDetails: [
              {
                permissionType: 'member',
                role: member.role ?? undefined,
                inherited: true,
                inheritedFrom: parent,
              },
            ],
          })),
        );
      parent = folder?.file.parents?.[0];
    }
    return permissions;
  }

  /** The file as files.list and files.get answer it: permissions only in My Drive and to someone who may share. */
  function present(stored: StoredFile, viewer: string): drive_v3.Schema$File {
    const { file } = stored;
    const sharing =
      !file.driveId && sharesFor(stored, viewer) ? { permissions: effectivePermissions(file.id ?? '') } : {};
    return { ...file, ...sharing };
  }

  function matches(file: drive_v3.Schema$File, clause: string): boolean | null {
    let match: RegExpExecArray | null;
    if (clause === 'trashed = false') return !file.trashed;
    if ((match = /^mimeType != '([^']+)'$/.exec(clause))) return file.mimeType !== match[1];
    if ((match = /^modifiedTime > '([^']+)'$/.exec(clause)))
      return Date.parse(file.modifiedTime ?? '') > Date.parse(match[1] ?? '');
    if ((match = /^'([^']+)' in parents$/.exec(clause)))
      return file.parents?.includes(match[1] ?? '') ?? false;
    return null;
  }

  function touch(id: string, change: (file: drive_v3.Schema$File) => drive_v3.Schema$File, modifies = true) {
    const stored = files.get(id);
    if (!stored) throw new Error(`no file ${id}`);
    logged(id, () => {
      stored.file = change({ ...stored.file, ...(modifies ? { modifiedTime: tick() } : {}) });
    });
  }

  /** Wraps a Drive route: answered as the member the request acts as. */
  const asViewer =
    (handler: (request: FakeRequest, viewer: string) => ReturnType<Parameters<FakeServer['route']>[2]>) =>
    (request: FakeRequest) => {
      const viewer = viewerOf(request);
      return viewer === null ? unauthenticated : handler(request, viewer);
    };

  server.route(
    'GET',
    '/drive/v3/about',
    asViewer((_request, viewer) => ({
      json: {
        kind: 'drive#about',
        user: {
          kind: 'drive#user',
          displayName: viewer === user ? 'Ada Admin' : viewer.split('@')[0],
          emailAddress: viewer,
          permissionId: viewer === user ? 'perm-admin' : `perm-${viewer.split('@')[0]}`,
        },
      } satisfies drive_v3.Schema$About,
    })),
  );

  /** The files a listing's corpus holds for the viewer (every file, for the single account of a plain fake). */
  function corpus(query: URLSearchParams, viewer: string): StoredFile[] {
    const all = [...files.values()];
    if (!workspace) return all;
    const corpora = query.get('corpora') ?? 'user';
    const driveId = query.get('driveId');
    const allDrives = query.get('includeItemsFromAllDrives') === 'true';
    return all.filter((stored) => {
      if (!listedFor(stored, viewer)) return false;
      const inDrive = stored.file.driveId;
      if (corpora === 'drive') return inDrive === driveId;
      return !inDrive || (corpora === 'allDrives' && allDrives);
    });
  }

  server.route(
    'GET',
    '/drive/v3/files',
    asViewer(({ query }, viewer) => {
      const clauses = (query.get('q') ?? '').split(' and ').filter((clause) => clause !== '');
      const all = corpus(query, viewer);
      const selected: StoredFile[] = [];
      for (const stored of all) {
        const verdicts = clauses.map((clause) => matches(stored.file, clause));
        if (verdicts.includes(null))
          return {
            status: 400,
            json: { error: { code: 400, message: 'Invalid Value', errors: [{ reason: 'invalid' }] } },
          };
        if (verdicts.every(Boolean)) selected.push(stored);
      }
      if (query.get('orderBy') === 'modifiedTime desc')
        selected.sort(
          (a, b) => Date.parse(b.file.modifiedTime ?? '') - Date.parse(a.file.modifiedTime ?? ''),
        );
      const size = Math.min(Number(query.get('pageSize') ?? 100), options.pageSize ?? 100);
      const page = pageOf(selected, query.get('pageToken'), size);
      return {
        json: {
          kind: 'drive#fileList',
          files: page.items.map((stored) => present(stored, viewer)),
          ...(page.next ? { nextPageToken: page.next } : {}),
        } satisfies drive_v3.Schema$FileList,
      };
    }),
  );

  /** The file by id, if the viewer may open it (Drive answers 404 for a file one may not open). */
  function openFile(id: string | undefined, viewer: string): StoredFile | undefined {
    const stored = files.get(id ?? '');
    return stored && openableBy(stored, viewer) ? stored : undefined;
  }

  server.route(
    'GET',
    '/drive/v3/files/:fileId',
    asViewer(({ params, query }, viewer) => {
      const stored = openFile(params.fileId, viewer);
      if (!stored) return fileNotFound(params.fileId);
      if (query.get('alt') === 'media') {
        const type = typeof stored.content === 'string' ? 'text/plain' : (stored.file.mimeType ?? '');
        return { body: stored.content, headers: { 'content-type': type } };
      }
      return { json: present(stored, viewer) satisfies drive_v3.Schema$File };
    }),
  );

  server.route(
    'GET',
    '/drive/v3/files/:fileId/export',
    asViewer(({ params, query }, viewer) => {
      const stored = openFile(params.fileId, viewer);
      if (!stored) return fileNotFound(params.fileId);
      if (!stored.file.mimeType?.startsWith('application/vnd.google-apps.'))
        return { status: 403, json: { error: { code: 403, errors: [{ reason: 'fileNotExportable' }] } } };
      return { body: stored.content, headers: { 'content-type': query.get('mimeType') ?? 'text/plain' } };
    }),
  );

  server.route(
    'GET',
    '/drive/v3/files/:fileId/permissions',
    asViewer(({ params, query }, viewer) => {
      const drive = drives.get(params.fileId ?? '');
      // A shared drive's own members, which only a Workspace admin may list without being one (useDomainAdminAccess).
      if (drive && query.get('useDomainAdminAccess') === 'true' && viewer === user)
        return {
          json: {
            kind: 'drive#permissionList',
            permissions: drive.members,
          } satisfies drive_v3.Schema$PermissionList,
        };
      const stored = openFile(params.fileId, viewer);
      if (!stored) return fileNotFound(params.fileId);
      if (!sharesFor(stored, viewer))
        return {
          status: 403,
          json: {
            error: {
              code: 403,
              message: 'Insufficient permissions',
              errors: [{ reason: 'insufficientFilePermissions' }],
            },
          },
        };
      return {
        json: {
          kind: 'drive#permissionList',
          permissions: effectivePermissions(stored.file.id ?? ''),
        } satisfies drive_v3.Schema$PermissionList,
      };
    }),
  );

  server.route(
    'GET',
    '/drive/v3/drives',
    asViewer(({ query }, viewer) => {
      const asAdmin = query.get('useDomainAdminAccess') === 'true';
      if (asAdmin && viewer !== user)
        return googleError(403, 'PERMISSION_DENIED', 'forbidden', 'Not an administrator of the domain');
      const visible = [...drives.entries()]
        .filter(([id]) => asAdmin || isDriveMember(id, viewer))
        .map(([, entry]) => entry.drive);
      const page = pageOf(
        visible,
        query.get('pageToken'),
        Math.min(Number(query.get('pageSize') ?? 10), options.pageSize ?? 100),
      );
      return {
        json: {
          kind: 'drive#driveList',
          drives: page.items,
          ...(page.next ? { nextPageToken: page.next } : {}),
        } satisfies drive_v3.Schema$DriveList,
      };
    }),
  );

  server.route(
    'GET',
    '/drive/v3/drives/:driveId',
    asViewer(({ params }, viewer) => {
      const drive = drives.get(params.driveId ?? '');
      return drive && (!workspace || isDriveMember(params.driveId ?? '', viewer))
        ? { json: drive.drive satisfies drive_v3.Schema$Drive }
        : notFound(`Shared drive ${params.driveId}`);
    }),
  );

  server.route(
    'GET',
    '/drive/v3/changes/startPageToken',
    asViewer(() => ({
      json: {
        kind: 'drive#startPageToken',
        startPageToken: String(changeLog.length + 1),
      } satisfies drive_v3.Schema$StartPageToken,
    })),
  );

  /**
   * Whether a logged change reaches the feed asked for, and whether the file is still in it there: a shared
   * drive's feed (driveId) holds its items, a member's feed the files in their corpus, a plain fake's every file.
   */
  function reach(entry: LoggedChange, query: URLSearchParams, viewer: string) {
    const stored = files.get(entry.fileId);
    if (!workspace) return { reported: true, inFeed: stored !== undefined };
    const driveId = query.get('driveId');
    if (driveId) {
      const inFeed = stored?.file.driveId === driveId;
      return { reported: inFeed || entry.driveBefore === driveId, inFeed };
    }
    const inFeed = stored !== undefined && !stored.file.driveId && listedFor(stored, viewer);
    return { reported: inFeed || entry.before.has(viewer), inFeed };
  }

  server.route(
    'GET',
    '/drive/v3/changes',
    asViewer(({ query }, viewer) => {
      const from = Number(query.get('pageToken'));
      if (!Number.isInteger(from) || from < 1 || from > changeLog.length + 1)
        return {
          status: 400,
          json: { error: { code: 400, errors: [{ reason: 'invalid', message: 'Invalid pageToken' }] } },
        };
      const size = Math.min(Number(query.get('pageSize') ?? 100), options.pageSize ?? 100);
      const end = Math.min(changeLog.length, from - 1 + size);
      // Drive reports a file once per page, as it is now.
      const reached = new Map<string, boolean>();
      for (const entry of changeLog.slice(from - 1, end)) {
        const { reported, inFeed } = reach(entry, query, viewer);
        if (reported) reached.set(entry.fileId, inFeed);
      }
      const changes = [...reached].map(([fileId, inFeed]): drive_v3.Schema$Change => {
        const stored = files.get(fileId);
        return stored && inFeed
          ? {
              kind: 'drive#change',
              changeType: 'file',
              fileId,
              removed: false,
              time: stored.file.modifiedTime,
              file: present(stored, viewer),
            }
          : { kind: 'drive#change', changeType: 'file', fileId, removed: true };
      });
      return {
        json: {
          kind: 'drive#changeList',
          changes,
          ...(end < changeLog.length
            ? { nextPageToken: String(end + 1) }
            : { newStartPageToken: String(end + 1) }),
        } satisfies drive_v3.Schema$ChangeList,
      };
    }),
  );

  const directory = serveDirectory(server, options.pageSize);

  return {
    server,
    account,
    get token() {
      return token;
    },
    addFile(input) {
      const modifiedTime = input.modifiedTime ?? tick();
      const owner = input.owner ?? user;
      files.set(input.id, {
        file: {
          kind: 'drive#file',
          id: input.id,
          name: input.name,
          mimeType: input.mimeType,
          // Drive reports a size for the files it stores as is, not for its own formats or folders.
          ...(input.mimeType.startsWith('application/vnd.google-apps.')
            ? {}
            : { size: String(input.size ?? byteLength(input.content ?? '')) }),
          parents: input.parent ? [input.parent] : [],
          ...(input.driveId
            ? { driveId: input.driveId }
            : { owners: [{ displayName: owner.split('@')[0], emailAddress: owner }] }),
          webViewLink: `https://docs.google.com/document/d/${input.id}/edit`,
          createdTime: modifiedTime,
          modifiedTime,
          trashed: false,
          lastModifyingUser: { displayName: owner.split('@')[0], emailAddress: owner },
        },
        content: input.content ?? '',
        // Drive lists a My Drive file's owner among its permissions; a shared drive owns its files itself.
        own: [
          ...(input.driveId || input.mimeType === FOLDER_MIME
            ? []
            : [{ type: 'user', role: 'owner', emailAddress: owner } satisfies drive_v3.Schema$Permission]),
          ...(input.permissions ?? []),
        ].map((permission, index) => ({
          kind: 'drive#permission',
          id: permission.id ?? `${input.id}-p${index}`,
          ...permission,
        })),
        hiddenSharing: false,
      });
      record(input.id);
    },
    addDrive(id, name, members) {
      drives.set(id, { drive: { kind: 'drive#drive', id, name }, members: [...members] });
    },
    edit(id, content) {
      touch(id, (file) => (file.size == null ? file : { ...file, size: String(byteLength(content)) }));
      const stored = files.get(id);
      if (stored) stored.content = content;
    },
    rename(id, name) {
      touch(id, (file) => ({ ...file, name }));
    },
    move(id, parent) {
      touch(id, (file) => ({ ...file, parents: [parent] }), false);
    },
    trash(id) {
      touch(id, (file) => ({ ...file, trashed: true }), false);
    },
    share(id, permissions) {
      const stored = files.get(id);
      if (!stored) throw new Error(`no file ${id}`);
      // Sharing does not change modifiedTime; Drive still reports the file in the change feed.
      logged(id, () => {
        // The owner's permission stays: ownership is transferred, never unshared.
        stored.own = [
          ...stored.own.filter((permission) => permission.role === 'owner'),
          ...permissions.map((permission, index) => ({
            id: permission.id ?? `${id}-s${index}`,
            ...permission,
          })),
        ];
      });
    },
    hideSharing(id) {
      const stored = files.get(id);
      if (stored) stored.hiddenSharing = true;
    },
    remove(id) {
      logged(id, () => files.delete(id));
    },
    transfer(id, owner) {
      const stored = files.get(id);
      if (!stored) throw new Error(`no file ${id}`);
      logged(id, () => {
        stored.own = [
          { type: 'user', role: 'owner', emailAddress: owner },
          ...stored.own.map((permission) =>
            permission.role === 'owner' ? { ...permission, role: 'writer' } : permission,
          ),
        ].map((permission, index) => ({ kind: 'drive#permission', id: `${id}-t${index}`, ...permission }));
        stored.file = { ...stored.file, owners: [{ displayName: owner.split('@')[0], emailAddress: owner }] };
      });
    },
    putUser(entry) {
      directory.putUser(entry);
      const email = entry.primaryEmail?.toLowerCase();
      if (!email) return;
      directoryUsers.add(email);
      account?.setMembers([...directoryUsers]);
    },
    removeUser(email) {
      directory.removeUser(email);
      const gone = email.toLowerCase();
      directoryUsers.delete(gone);
      account?.setMembers([...directoryUsers]);
      // Drive keeps a deleted account's grants, marked deleted.
      const mark = (permission: drive_v3.Schema$Permission) =>
        permission.type === 'user' && permission.emailAddress?.toLowerCase() === gone
          ? { ...permission, deleted: true }
          : permission;
      for (const stored of files.values()) stored.own = stored.own.map(mark);
      for (const drive of drives.values()) drive.members = drive.members.map(mark);
    },
    addGroup(email, members) {
      directory.addGroup(email, members);
      groupMembers.set(email.toLowerCase(), members);
    },
    setMembers(email, members) {
      directory.setMembers(email, members);
      if (groupMembers.has(email.toLowerCase())) groupMembers.set(email.toLowerCase(), members);
    },
    rotateToken(next) {
      token = next;
      server.requireBearer(next);
    },
    close: () => server.close(),
  };
}

/**
 * Acme's drive: My Drive with a group-shared folder, a domain-wide sheet, a link-only PDF, a file whose sharing the
 * account cannot read, a file older than the sync window, and a shared drive with a member and a member group.
 */
export function seedAcmeDrive(fake: DriveFake): void {
  fake.addGroup('eng@acme.test', [
    { email: 'grace@acme.test', type: 'USER', status: 'ACTIVE' },
    { email: 'sre@acme.test', type: 'GROUP' },
    { email: 'mallory@acme.test', type: 'USER', status: 'SUSPENDED' },
  ]);
  fake.addGroup('sre@acme.test', [{ email: 'linus@acme.test', type: 'USER', status: 'ACTIVE' }]);
  fake.addGroup('sales@acme.test', [{ email: 'dave@acme.test', type: 'USER', status: 'ACTIVE' }]);
  fake.addFile({ id: 'root', name: 'My Drive', mimeType: FOLDER_MIME });
  fake.addFile({
    id: 'f-eng',
    name: 'Engineering',
    mimeType: FOLDER_MIME,
    parent: 'root',
    permissions: [{ type: 'group', role: 'reader', emailAddress: 'eng@acme.test' }],
  });
  fake.addFile({ id: 'f-archive', name: 'Archive', mimeType: FOLDER_MIME, parent: 'root' });
  fake.addFile({
    id: 'd-roadmap',
    name: 'Falcon roadmap',
    mimeType: DOC_MIME,
    parent: 'f-eng',
    content: 'The falcon roadmap: ship the quarterly plan.',
    permissions: [{ type: 'user', role: 'reader', emailAddress: 'Bob@acme.test' }],
  });
  fake.addFile({
    id: 't-notes',
    name: 'falcon-notes.txt',
    mimeType: 'text/plain',
    parent: 'f-eng',
    content: 'Falcon standup notes.',
  });
  fake.addFile({
    id: 's-budget',
    name: 'Falcon budget',
    mimeType: SHEET_MIME,
    parent: 'root',
    content: 'item,cost\nfalcon servers,100',
    permissions: [{ type: 'domain', role: 'reader', domain: 'acme.test', allowFileDiscovery: true }],
  });
  fake.addFile({
    id: 'p-handbook',
    name: 'Falcon handbook.pdf',
    mimeType: 'application/pdf',
    parent: 'root',
    permissions: [
      { type: 'anyone', role: 'reader', allowFileDiscovery: false },
      { type: 'domain', role: 'reader', domain: 'partner.test', allowFileDiscovery: true },
    ],
  });
  fake.addFile({
    id: 'd-secret',
    name: 'Falcon salaries',
    mimeType: DOC_MIME,
    parent: 'root',
    owner: 'hr@acme.test',
    content: 'falcon salaries',
  });
  fake.hideSharing('d-secret');
  fake.addFile({
    id: 'd-old',
    name: 'Falcon 2019 retro',
    mimeType: DOC_MIME,
    parent: 'root',
    content: 'falcon retro',
    modifiedTime: '2019-01-01T00:00:00Z',
  });
  fake.addDrive('drive-sales', 'Sales', [
    { type: 'user', role: 'organizer', emailAddress: 'carol@acme.test' },
    { type: 'group', role: 'reader', emailAddress: 'sales@acme.test' },
  ]);
  fake.addFile({
    id: 'd-pitch',
    name: 'Falcon pitch',
    mimeType: DOC_MIME,
    parent: 'drive-sales',
    driveId: 'drive-sales',
    content: 'The falcon pitch deck.',
  });
}
