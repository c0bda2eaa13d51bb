// Google Drive: My Drive and every shared drive the connected account can open, through Google's Drive SDK
// (https://developers.google.com/workspace/drive/api/reference/rest/v3). A full sync lists the files modified in the
// 3-year window newest first; the change feed (changes.getStartPageToken, then changes.list) carries every later
// edit, move, share and trash. Groups named in sharing come from the Directory API (admin.directory.group.readonly).
import type { drive_v3 } from '@googleapis/drive';
import { z } from 'zod';
import { ObjectType } from '../../common/catalogue';
import { CREDENTIAL_NAMES } from '../../common/strings';
import {
  FatalSourceError,
  HttpStatusError,
  NotFoundError,
  ResponseTooLargeError,
  defineConnector,
  type DocumentAcl,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import {
  call,
  driveApi,
  googleConfigSchema,
  googleCredentialsSchema,
  googleOAuth,
  type GoogleContext,
} from '../google/api';
import { directoryGroups } from '../google/directory';
import { readersOf } from './acl';

export const DRIVE_SCOPES = [
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
] as const;

const FOLDER = 'application/vnd.google-apps.folder';
const SHORTCUT = 'application/vnd.google-apps.shortcut';
/** Google's own formats export to text; the rest of them (Forms, Sites, Maps) have no text export. */
const EXPORTS: Readonly<Record<string, { mimeType: string; fileType: string }>> = {
  'application/vnd.google-apps.document': { mimeType: 'text/plain', fileType: 'gdoc' },
  'application/vnd.google-apps.spreadsheet': { mimeType: 'text/csv', fileType: 'gsheet' },
  'application/vnd.google-apps.presentation': { mimeType: 'text/plain', fileType: 'gslides' },
};
/** Files whose bytes are text already. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml)$)/;
const FILE_TYPES: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-powerpoint': 'ppt',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
};

const PERMISSION_FIELDS = 'id,type,role,emailAddress,domain,allowFileDiscovery,deleted,view';
const FILE_FIELDS = [
  'id,name,mimeType,size,webViewLink,createdTime,modifiedTime,trashed,parents,driveId',
  'owners(displayName,emailAddress),lastModifyingUser(displayName,emailAddress)',
  `permissions(${PERMISSION_FIELDS})`,
].join(',');
const PAGE_SIZE = 100;
/** A folder path deeper than this is cut: Drive allows 100 levels, and a path is for reading, not navigation. */
const MAX_PATH_DEPTH = 20;

/**
 * Where a sync stands. 'list': the full listing, `pageToken` its next page, `changesToken` the change feed's
 * position taken before the listing began, so nothing changed meanwhile is missed. 'changes': the change feed.
 */
const cursorSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('list'), pageToken: z.string().min(1), changesToken: z.string().min(1) }),
  z.object({ phase: z.literal('changes'), changesToken: z.string().min(1) }),
]);
type DriveCursor = z.infer<typeof cursorSchema>;

/** What one sync run keeps: the clients, the organisation's domain and the folder names it looked up. */
interface Run {
  readonly ctx: GoogleContext;
  readonly drive: drive_v3.Drive;
  readonly orgDomain: string;
  readonly folders: Map<string, Promise<{ name: string; parent: string | null }>>;
}

async function startRun(ctx: GoogleContext): Promise<Run> {
  const drive = driveApi(ctx);
  const about = await call(drive.about.get({ fields: 'user(emailAddress)' }));
  // The connecting account's domain is the Workspace's: the spec has an org connection made by its admin.
  const orgDomain = about.user?.emailAddress?.split('@')[1]?.toLowerCase() ?? '';
  return { ctx, drive, orgDomain, folders: new Map() };
}

/** Files the sync covers: not trashed, not folders or shortcuts, modified inside the sync window. */
function listingQuery(ctx: GoogleContext, extra?: string): string {
  return [
    'trashed = false',
    `mimeType != '${FOLDER}'`,
    `mimeType != '${SHORTCUT}'`,
    `modifiedTime > '${ctx.syncWindowStart.toISOString()}'`,
    ...(extra ? [extra] : []),
  ].join(' and ');
}

const ALL_DRIVES = {
  corpora: 'allDrives',
  includeItemsFromAllDrives: true,
  supportsAllDrives: true,
} as const;

function inScope(ctx: GoogleContext, file: drive_v3.Schema$File): boolean {
  return (
    !file.trashed &&
    file.mimeType !== FOLDER &&
    file.mimeType !== SHORTCUT &&
    new Date(file.modifiedTime ?? 0) > ctx.syncWindowStart
  );
}

function folder(run: Run, id: string, driveId: string | null | undefined) {
  let found = run.folders.get(id);
  if (!found) {
    found = (async () => {
      // A shared drive's root folder has the drive's id; its name is the drive's.
      if (id === driveId) {
        const drive = await call(run.drive.drives.get({ driveId: id, fields: 'name' }));
        return { name: drive.name ?? '', parent: null };
      }
      const file = await call(
        run.drive.files.get({ fileId: id, fields: 'name,parents', supportsAllDrives: true }),
      );
      return { name: file.name ?? '', parent: file.parents?.[0] ?? null };
    })();
    run.folders.set(id, found);
  }
  return found;
}

/** '/Shared drive/Folder/Sub': the names of the folders holding the file, as far up as the account can see. */
async function pathOf(run: Run, file: drive_v3.Schema$File): Promise<string> {
  const names: string[] = [];
  let next = file.parents?.[0] ?? null;
  while (next !== null && names.length < MAX_PATH_DEPTH) {
    try {
      const parent = await folder(run, next, file.driveId);
      names.unshift(parent.name);
      next = parent.parent;
    } catch (error) {
      // A folder the account cannot open ends the path there; the file itself is still readable.
      if (error instanceof HttpStatusError) break;
      throw error;
    }
  }
  return `/${names.join('/')}`;
}

async function permissionsOf(
  run: Run,
  file: drive_v3.Schema$File,
): Promise<drive_v3.Schema$Permission[] | null> {
  // files.list carries permissions only in My Drive, and only to someone who may share the file.
  if (file.permissions) return file.permissions;
  const permissions: drive_v3.Schema$Permission[] = [];
  let pageToken: string | undefined;
  try {
    do {
      const page = await call(
        run.drive.permissions.list({
          fileId: file.id ?? '',
          supportsAllDrives: true,
          pageSize: 100,
          pageToken,
          fields: `nextPageToken,permissions(${PERMISSION_FIELDS})`,
        }),
      );
      permissions.push(...(page.permissions ?? []));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  } catch (error) {
    if (error instanceof HttpStatusError) return null;
    throw error;
  }
  return permissions;
}

/** The file's readers; nobody while its permissions cannot be read (fail closed, DESIGN §5). */
async function aclOf(run: Run, file: drive_v3.Schema$File) {
  const permissions = await permissionsOf(run, file);
  return permissions === null ? [] : readersOf(permissions, run.orgDomain, 'gdrive');
}

async function textOf(run: Run, file: drive_v3.Schema$File): Promise<string | null> {
  const fileId = file.id ?? '';
  const exported = EXPORTS[file.mimeType ?? ''];
  try {
    if (exported) {
      const text = await call(
        run.drive.files.export({ fileId, mimeType: exported.mimeType }, { responseType: 'text' }),
      );
      return typeof text === 'string' ? text : null;
    }
    if (TEXT_TYPES.test(file.mimeType ?? '')) {
      const text = await call(
        run.drive.files.get({ fileId, alt: 'media', supportsAllDrives: true }, { responseType: 'text' }),
      );
      return typeof text === 'string' ? text : null;
    }
    const size = Number(file.size ?? Number.NaN);
    return await run.ctx.files.parse(
      {
        name: file.name ?? fileId,
        ...(file.mimeType ? { mimeType: file.mimeType } : {}),
        ...(Number.isSafeInteger(size) ? { size } : {}),
      },
      async (limits) => {
        const data: unknown = await call(
          driveApi(run.ctx, limits).files.get(
            { fileId, alt: 'media', supportsAllDrives: true },
            { responseType: 'arraybuffer' },
          ),
        );
        if (!(data instanceof ArrayBuffer))
          throw new FatalSourceError('Drive answered a download without bytes');
        return new Uint8Array(data);
      },
    );
  } catch (error) {
    // Too large to export (Google's limit is 10 MB) or to hold, or not exportable: the title and path still count.
    if (error instanceof HttpStatusError && !(error instanceof NotFoundError)) return null;
    if (error instanceof ResponseTooLargeError) return null;
    throw error;
  }
}

function fileTypeOf(file: drive_v3.Schema$File): string {
  const mimeType = file.mimeType ?? '';
  const known = EXPORTS[mimeType]?.fileType ?? FILE_TYPES[mimeType];
  if (known) return known;
  const extension = /\.([a-z0-9]{1,8})$/i.exec(file.name ?? '')?.[1]?.toLowerCase();
  return extension ?? 'file';
}

/**
 * The file as a document, or null when it vanished while being read. A file without text (an image, a video, a
 * PDF that will not parse) is indexed by its title and folder path.
 */
async function documentOf(run: Run, file: drive_v3.Schema$File): Promise<SourceDocument | null> {
  try {
    const [path, acl, text] = await Promise.all([pathOf(run, file), aclOf(run, file), textOf(run, file)]);
    const author = file.owners?.[0] ?? file.lastModifyingUser ?? {};
    const id = file.id ?? '';
    return {
      externalId: id,
      title: file.name || id,
      url: file.webViewLink ?? `https://drive.google.com/file/d/${encodeURIComponent(id)}/view`,
      body: text ?? path,
      author: {
        ...(author.displayName ? { name: author.displayName } : {}),
        ...(author.emailAddress ? { email: author.emailAddress } : {}),
      },
      objectType: ObjectType.Files,
      fileType: fileTypeOf(file),
      createdTime: new Date(file.createdTime ?? file.modifiedTime ?? 0),
      modifiedTime: new Date(file.modifiedTime ?? 0),
      acl,
      extra: {
        path,
        mimeType: file.mimeType ?? '',
        ...(file.driveId ? { driveId: file.driveId } : {}),
      },
    };
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

async function documentsOf(run: Run, files: readonly drive_v3.Schema$File[]): Promise<SourceDocument[]> {
  // The connection's limiter bounds how many of these run at once.
  const documents = await Promise.all(files.map((file) => documentOf(run, file)));
  return documents.filter((document): document is SourceDocument => document !== null);
}

function oldestModified(files: readonly drive_v3.Schema$File[]): Date | undefined {
  const times = files.map((file) => Date.parse(file.modifiedTime ?? '')).filter(Number.isFinite);
  return times.length > 0 ? new Date(Math.min(...times)) : undefined;
}

async function* listing(
  run: Run,
  startPageToken: string | undefined,
  changesToken: string,
): AsyncGenerator<SyncBatch> {
  let pageToken = startPageToken;
  do {
    const page = await call(
      run.drive.files.list({
        ...ALL_DRIVES,
        q: listingQuery(run.ctx),
        orderBy: 'modifiedTime desc',
        pageSize: PAGE_SIZE,
        pageToken,
        fields: `nextPageToken,files(${FILE_FIELDS})`,
      }),
    );
    const files = page.files ?? [];
    pageToken = page.nextPageToken ?? undefined;
    const cursor: DriveCursor = pageToken
      ? { phase: 'list', pageToken, changesToken }
      : { phase: 'changes', changesToken };
    const syncedFrom = pageToken ? oldestModified(files) : run.ctx.syncWindowStart;
    yield {
      documents: await documentsOf(run, files),
      cursor,
      ...(syncedFrom ? { progress: { syncedFrom } } : {}),
    };
  } while (pageToken);
}

/** Every file in scope under a folder, however deep: a folder moved, renamed or reshared changes them all. */
async function* filesUnder(run: Run, folderId: string): AsyncGenerator<drive_v3.Schema$File[]> {
  const pending = [folderId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    let pageToken: string | undefined;
    do {
      const page = await call(
        run.drive.files.list({
          ...ALL_DRIVES,
          q: `'${id.replace(/'/g, "\\'")}' in parents and trashed = false`,
          pageSize: PAGE_SIZE,
          pageToken,
          fields: `nextPageToken,files(${FILE_FIELDS})`,
        }),
      );
      const files = page.files ?? [];
      pending.push(...files.filter((file) => file.mimeType === FOLDER).flatMap((file) => file.id ?? []));
      yield files.filter((file) => inScope(run.ctx, file));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  }
}

async function* changes(run: Run, startToken: string): AsyncGenerator<SyncBatch> {
  let token = startToken;
  for (;;) {
    const page = await call(
      run.drive.changes.list({
        pageToken: token,
        includeItemsFromAllDrives: true,
        supportsAllDrives: true,
        includeRemoved: true,
        spaces: 'drive',
        pageSize: PAGE_SIZE,
        fields: `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,file(${FILE_FIELDS}))`,
      }),
    );
    const next = page.nextPageToken ?? page.newStartPageToken;
    if (!next) throw new FatalSourceError('Drive answered a page of changes without a page token');
    const files: drive_v3.Schema$File[] = [];
    const deleted: string[] = [];
    const folders: string[] = [];
    for (const change of page.changes ?? []) {
      // Shared drives' own changes (renamed, restricted) reach their files as file changes.
      if (change.changeType === 'drive' || !change.fileId) continue;
      const file = change.file;
      if (change.removed || !file || file.trashed) deleted.push(change.fileId);
      else if (file.mimeType === FOLDER) folders.push(change.fileId);
      else if (inScope(run.ctx, file)) files.push(file);
      else deleted.push(change.fileId);
    }
    const documents = await documentsOf(run, files);
    for (const folderId of folders) {
      // Reset the folder's name and place: this run may have looked it up before the change.
      run.folders.delete(folderId);
      for await (const under of filesUnder(run, folderId)) documents.push(...(await documentsOf(run, under)));
    }
    yield {
      documents: dedupe(documents),
      deletedExternalIds: deleted,
      cursor: { phase: 'changes', changesToken: next } satisfies DriveCursor,
    };
    if (!page.nextPageToken) return;
    token = page.nextPageToken;
  }
}

/** The last version of each document: a file may arrive as a change and again under a changed folder. */
function dedupe(documents: readonly SourceDocument[]): SourceDocument[] {
  return [...new Map(documents.map((document) => [document.externalId, document])).values()];
}

async function currentAcl(run: Run, externalId: string): Promise<DocumentAcl | null> {
  try {
    const file = await call(
      run.drive.files.get({
        fileId: externalId,
        supportsAllDrives: true,
        fields: `id,trashed,mimeType,modifiedTime,driveId,permissions(${PERMISSION_FIELDS})`,
      }),
    );
    if (!inScope(run.ctx, file)) return null;
    return { externalId, acl: await aclOf(run, file) };
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

export const gdriveConnector = defineConnector({
  shortname: 'gdrive',
  installPayload: { individual: 'oauth' },
  credentialsSchema: googleCredentialsSchema,
  configSchema: googleConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  oauth: googleOAuth(DRIVE_SCOPES),
  // Drive allows 12,000 queries a minute per user; a fifth of it leaves room for the account's other apps.
  limits: { concurrency: 4, rate: { requests: 40, intervalMs: 1_000 } },

  async validate(ctx) {
    const about = await call(
      driveApi(ctx).about.get({ fields: 'user(displayName,emailAddress,permissionId)' }),
    );
    const email = about.user?.emailAddress ?? undefined;
    return {
      ...(email ? { email, workspaceName: email.split('@')[1] } : {}),
      ...(about.user?.permissionId ? { appUserId: about.user.permissionId } : {}),
    };
  },

  async *fullSync(ctx) {
    const run = await startRun(ctx);
    const start = await call(run.drive.changes.getStartPageToken({ supportsAllDrives: true }));
    if (!start.startPageToken) throw new FatalSourceError('Drive answered no start page token');
    yield* listing(run, undefined, start.startPageToken);
  },

  async *incrementalSync(ctx, cursor) {
    const position = cursorSchema.parse(cursor);
    const run = await startRun(ctx);
    if (position.phase === 'list') yield* listing(run, position.pageToken, position.changesToken);
    else yield* changes(run, position.changesToken);
  },

  async *listIds(ctx) {
    const drive = driveApi(ctx);
    let pageToken: string | undefined;
    do {
      const page = await call(
        drive.files.list({
          ...ALL_DRIVES,
          q: listingQuery(ctx),
          pageSize: 1000,
          pageToken,
          fields: 'nextPageToken,files(id)',
        }),
      );
      yield (page.files ?? []).flatMap((file) => file.id ?? []);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  },

  permissions: (ctx) => directoryGroups(ctx, 'gdrive'),

  async documentAcls(ctx, externalIds) {
    const run = await startRun(ctx);
    const answers = await Promise.all(externalIds.map((id) => currentAcl(run, id)));
    return answers.filter((answer): answer is DocumentAcl => answer !== null);
  },
});
