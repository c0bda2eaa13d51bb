import { and, desc, eq, isNull, or } from 'drizzle-orm';
import type { UploadedDocument } from '../../common/api/uploads';
import type { Viewer } from '../context';
import { uploads, users } from '../db/schema';
import type { Db } from '../db/store';
import { assertMayDeleteUpload } from '../policies/uploads';
import { presentUpload } from '../presenters/upload';
import { deleteDocuments } from '../search';
import { uploadDocumentRef } from './index-job';

/**
 * The files the viewer can find: their own and the workspace-wide ones, newest first. Sites' export archives are
 * a connection's source, not files to search or attach, so they are left out.
 */
export async function listUploads(db: Db, viewer: Viewer): Promise<UploadedDocument[]> {
  const rows = await db
    .select({ upload: uploads, creator: users })
    .from(uploads)
    .leftJoin(users, eq(users.id, uploads.creatorId))
    .where(
      and(
        eq(uploads.orgId, viewer.orgId),
        isNull(uploads.siteId),
        or(eq(uploads.creatorId, viewer.userId), eq(uploads.visibility, 'ORG')),
      ),
    )
    .orderBy(desc(uploads.createdAt), desc(uploads.id));
  return rows.map((row) => presentUpload(row.upload, row.creator));
}

/** The row goes first (its bytes with it), then the document: see indexUpload for why that order. */
export async function deleteUpload(db: Db, viewer: Viewer, id: string): Promise<void> {
  const [upload] = await db
    .select({ orgId: uploads.orgId, creatorId: uploads.creatorId, visibility: uploads.visibility })
    .from(uploads)
    .where(and(eq(uploads.orgId, viewer.orgId), eq(uploads.id, id)));
  assertMayDeleteUpload(upload, viewer);
  await db.delete(uploads).where(and(eq(uploads.orgId, viewer.orgId), eq(uploads.id, id)));
  await deleteDocuments(db, viewer.orgId, [uploadDocumentRef(id)]);
}
