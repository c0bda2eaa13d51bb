// What the individual and the org connections of Drive share: the fields they ask for, what a file becomes as a
// document (text, folder path, readers) and the walk under a folder whose place or sharing changed.
import type { drive_v3 } from '@googleapis/drive';
import { z } from 'zod';
import { ObjectType } from '../../common/catalogue';
import {
  FatalSourceError,
  HttpStatusError,
  NotFoundError,
  ResponseTooLargeError,
  type SourceDocument,
} from '../sdk';
import { call, driveApi, type GoogleContext } from '../google/api';
import { readersOf } from './acl';

export const FOLDER = 'application/vnd.google-apps.folder';
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

export const PERMISSION_FIELDS = 'id,type,role,emailAddress,domain,allowFileDiscovery,deleted,view';
export const FILE_FIELDS = [
  'id,name,mimeType,size,webViewLink,createdTime,modifiedTime,trashed,parents,driveId',
  'owners(displayName,emailAddress),lastModifyingUser(displayName,emailAddress)',
  `permissions(${PERMISSION_FIELDS})`,
].join(',');
export const PAGE_SIZE = 100;
/** A folder path deeper than this is cut: Drive allows 100 levels, and a path is for reading, not navigation. */
const MAX_PATH_DEPTH = 20;

/**
 * Where a sync stands. 'list': the full listing, `pageToken` its next page, `changesToken` the change feed's
 * position taken before the listing began, so nothing changed meanwhile is missed. 'changes': the change feed.
 */
export const cursorSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('list'), pageToken: z.string().min(1), changesToken: z.string().min(1) }),
  z.object({ phase: z.literal('changes'), changesToken: z.string().min(1) }),
]);
export type DriveCursor = z.infer<typeof cursorSchema>;

/** What one sync run keeps: the clients, the organisation's domain and the folder names it looked up. */
export interface Run {
  readonly ctx: GoogleContext;
  readonly drive: drive_v3.Drive;
  readonly orgDomain: string;
  readonly folders: Map<string, Promise<{ name: string; parent: string | null }>>;
}

export async function startRun(ctx: GoogleContext): Promise<Run> {
  const drive = driveApi(ctx);
  const about = await call(drive.about.get({ fields: 'user(emailAddress)' }));
  // The connecting account's domain is the Workspace's: the spec has an org connection made by its admin.
  const orgDomain = about.user?.emailAddress?.split('@')[1]?.toLowerCase() ?? '';
  return { ctx, drive, orgDomain, folders: new Map() };
}

/** Files the sync covers: not trashed, not folders or shortcuts, modified inside the sync window. */
export function listingQuery(ctx: GoogleContext, extra?: string): string {
  return [
    'trashed = false',
    `mimeType != '${FOLDER}'`,
    `mimeType != '${SHORTCUT}'`,
    `modifiedTime > '${ctx.syncWindowStart.toISOString()}'`,
    ...(extra ? [extra] : []),
  ].join(' and ');
}

export const ALL_DRIVES = {
  corpora: 'allDrives',
  includeItemsFromAllDrives: true,
  supportsAllDrives: true,
} as const;

export function inScope(ctx: GoogleContext, file: drive_v3.Schema$File): boolean {
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

export async function permissionsOf(
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
export async function aclOf(run: Run, file: drive_v3.Schema$File) {
  const permissions = await permissionsOf(run, file);
  return permissions === null ? [] : readersOf(permissions, run.orgDomain);
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
export async function documentOf(run: Run, file: drive_v3.Schema$File): Promise<SourceDocument | null> {
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

export async function documentsOf(
  run: Run,
  files: readonly drive_v3.Schema$File[],
): Promise<SourceDocument[]> {
  // The connection's limiter bounds how many of these run at once.
  const documents = await Promise.all(files.map((file) => documentOf(run, file)));
  return documents.filter((document): document is SourceDocument => document !== null);
}

export function oldestModified(files: readonly drive_v3.Schema$File[]): Date | undefined {
  const times = files.map((file) => Date.parse(file.modifiedTime ?? '')).filter(Number.isFinite);
  return times.length > 0 ? new Date(Math.min(...times)) : undefined;
}

/** Every file in scope under a folder, however deep: a folder moved, renamed or reshared changes them all. */
export async function* filesUnder(run: Run, folderId: string): AsyncGenerator<drive_v3.Schema$File[]> {
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

/** The last version of each document: a file may arrive as a change and again under a changed folder. */
export function dedupe(documents: readonly SourceDocument[]): SourceDocument[] {
  return [...new Map(documents.map((document) => [document.externalId, document])).values()];
}
