// The job that moves a stored upload's text into the search index, where it is a document like any other
// (source 'files', the upload's id as external id) with the ACL of its visibility. Until it has run the upload
// shows total_chunks -1; afterwards its chunk count.
import { and, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ReferenceSource } from '../../common/api/messages';
import { documentChunks, uploads, users } from '../db/schema';
import type { Db } from '../db/store';
import { registerJobHandler } from '../jobs/worker';
import { uploadAcl } from '../policies/uploads';
import { memberNameOf } from '../presenters/member';
import { deleteDocuments, upsertDocuments, type DocumentRef } from '../search';

export const UPLOAD_INDEX_JOB = 'uploads.index';

const payloadSchema = z.object({ uploadId: z.uuid() });

export function uploadDocumentRef(uploadId: string): DocumentRef {
  return { source: ReferenceSource.files, connectionId: null, externalId: uploadId };
}

/**
 * Indexes one upload. Runs again harmlessly (the index upsert is idempotent), and an upload deleted while it runs
 * loses the document it just wrote: deletion removes the row before the document, and this looks for the row
 * after writing the document, so whichever finishes last leaves nothing behind.
 */
export async function indexUpload(db: Db, uploadId: string): Promise<void> {
  const [row] = await db
    .select({ upload: uploads, creator: users })
    .from(uploads)
    .leftJoin(users, eq(users.id, uploads.creatorId))
    .where(eq(uploads.id, uploadId));
  const body = row?.upload.parsedText;
  if (!row || body === null || body === undefined) return;
  const { upload, creator } = row;
  const { orgId } = upload;

  let totalChunks = 0;
  let documentId: string | null = null;
  // a private file whose uploader has left can be read by nobody: it is not indexed at all
  if (creator || upload.visibility === 'ORG') {
    const indexed = await upsertDocuments(db, orgId, [
      {
        ...uploadDocumentRef(upload.id),
        title: upload.title ?? upload.fileName,
        body,
        author: creator ? memberNameOf(creator) : null,
        authorEmail: creator?.email ?? null,
        objectType: 'Files',
        fileType: upload.fileType,
        createdTime: upload.createdAt,
        modifiedTime: upload.createdAt,
        acl: uploadAcl(upload.visibility, creator?.email ?? ''),
        extra: { fileName: upload.fileName },
      },
    ]);
    documentId = indexed.documentIds[0] ?? null;
    if (documentId) {
      const [chunks] = await db
        .select({ n: count() })
        .from(documentChunks)
        .where(and(eq(documentChunks.orgId, orgId), eq(documentChunks.documentId, documentId)));
      totalChunks = chunks?.n ?? 0;
    }
  }
  const updated = await db
    .update(uploads)
    .set({ documentId, totalChunks, parsedText: null })
    .where(and(eq(uploads.orgId, orgId), eq(uploads.id, upload.id)))
    .returning({ id: uploads.id });
  if (updated.length === 0) await deleteDocuments(db, orgId, [uploadDocumentRef(upload.id)]);
}

registerJobHandler(UPLOAD_INDEX_JOB, async (job, { store }) => {
  const { uploadId } = payloadSchema.parse(job.payload);
  await indexUpload(store.db, uploadId);
});
