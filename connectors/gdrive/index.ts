// Google Drive: My Drive and every shared drive the connected account can open, through Google's Drive SDK
// (https://developers.google.com/workspace/drive/api/reference/rest/v3). A full sync lists the files modified in the
// 3-year window newest first; the change feed (changes.getStartPageToken, then changes.list) carries every later
// edit, move, share and trash. Groups named in sharing come from the Directory API (admin.directory.group.readonly).
// The Workspace admin's org connection reads every member's Drive and every shared drive (./org.ts).
import type { drive_v3 } from '@googleapis/drive';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { FatalSourceError, NotFoundError, defineConnector, type DocumentAcl, type SyncBatch } from '../sdk';
import {
  call,
  driveApi,
  googleConfigSchema,
  googleCredentialsSchema,
  googleOAuth,
  isDelegated,
} from '../google/api';
import { directoryGroups } from '../google/directory';
import {
  ALL_DRIVES,
  FILE_FIELDS,
  FOLDER,
  PAGE_SIZE,
  PERMISSION_FIELDS,
  aclOf,
  cursorSchema,
  dedupe,
  documentsOf,
  filesUnder,
  inScope,
  listingQuery,
  oldestModified,
  startRun,
  type DriveCursor,
  type Run,
} from './files';
import {
  DRIVE_ORG_SCOPES,
  orgDocumentAcls,
  orgFullSync,
  orgGroupsContext,
  orgIncrementalSync,
  orgListIds,
  validateOrg,
} from './org';

export const DRIVE_SCOPES = [
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
] as const;

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
  installPayload: { org: 'marketplace', individual: 'oauth' },
  delegatedScopes: DRIVE_ORG_SCOPES,
  credentialsSchema: googleCredentialsSchema,
  configSchema: googleConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  oauth: googleOAuth(DRIVE_SCOPES),
  // Drive allows 12,000 queries a minute per user; a fifth of it leaves room for the account's other apps. Google
  // meters each API apart (Drive, Gmail, Calendar and the Admin SDK each have per-project and per-user quotas of
  // their own), so no Google app shares another's vendor. (Drive's org connection also lists groups through
  // the Admin SDK, a few calls per permission sync, paced by Drive's limiter rather than the directory's.)
  limits: { concurrency: 4, rate: { requests: 40, intervalMs: 1_000 } },

  async validate(ctx) {
    if (isDelegated(ctx)) return validateOrg(ctx);
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
    if (isDelegated(ctx)) {
      yield* orgFullSync(ctx);
      return;
    }
    const run = await startRun(ctx);
    const start = await call(run.drive.changes.getStartPageToken({ supportsAllDrives: true }));
    if (!start.startPageToken) throw new FatalSourceError('Drive answered no start page token');
    yield* listing(run, undefined, start.startPageToken);
  },

  async *incrementalSync(ctx, cursor) {
    if (isDelegated(ctx)) {
      yield* orgIncrementalSync(ctx, cursor);
      return;
    }
    const position = cursorSchema.parse(cursor);
    const run = await startRun(ctx);
    if (position.phase === 'list') yield* listing(run, position.pageToken, position.changesToken);
    else yield* changes(run, position.changesToken);
  },

  async *listIds(ctx) {
    if (isDelegated(ctx)) {
      yield* orgListIds(ctx);
      return;
    }
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

  permissions: (ctx) => directoryGroups(isDelegated(ctx) ? orgGroupsContext(ctx) : ctx),

  async documentAcls(ctx, externalIds) {
    if (isDelegated(ctx)) return orgDocumentAcls(ctx, externalIds);
    const run = await startRun(ctx);
    const answers = await Promise.all(externalIds.map((id) => currentAcl(run, id)));
    return answers.filter((answer): answer is DocumentAcl => answer !== null);
  },
});
