// Who may do what to an uploaded file. The same rule as the file's ACL in the index: a PRIVATE file is its
// uploader's alone, an ORG file everyone's in the workspace. A viewer who cannot see a file is told 404, never
// 403, so a private file's existence does not leak.
import { uploadMessages, type UploadVisibility } from '../../common/api/uploads';
import { ADMIN_REQUIRED_MESSAGE } from './access';
import type { Viewer } from '../context';
import type { Upload } from '../db/schema';
import { ORG_PRINCIPAL, userPrincipal } from '../search';
import { forbidden, notFound } from '../errors';

export type UploadFacts = Pick<Upload, 'orgId' | 'creatorId' | 'visibility'>;

export function canSeeUpload(upload: UploadFacts, viewer: Viewer): boolean {
  if (upload.orgId !== viewer.orgId) return false;
  return upload.creatorId === viewer.userId || upload.visibility === 'ORG';
}

/** The uploader, or an admin for a file the whole workspace sees. */
export function assertMayDeleteUpload(upload: UploadFacts | undefined, viewer: Viewer): void {
  if (!upload || !canSeeUpload(upload, viewer)) throw notFound(uploadMessages.NOT_FOUND);
  if (upload.creatorId !== viewer.userId && !viewer.admin)
    throw forbidden(uploadMessages.ONLY_CREATOR_OR_ADMIN);
}

/** Only admins publish a file to everyone's search; anyone may upload for themselves. */
export function assertMayUploadWith(visibility: UploadVisibility, viewer: Viewer): void {
  if (visibility === 'ORG' && !viewer.admin) throw forbidden(ADMIN_REQUIRED_MESSAGE, 'ADMIN_REQUIRED');
}

/** The index ACL of a file: the uploader alone, or the whole org. */
export function uploadAcl(visibility: string, creatorEmail: string): string[] {
  return visibility === 'ORG' ? [ORG_PRINCIPAL] : [userPrincipal(creatorEmail)];
}
