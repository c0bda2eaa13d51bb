import { UPLOAD_VISIBILITIES, type UploadedDocument, type UploadVisibility } from '../../common/api/uploads';
import type { Upload, User } from '../db/schema';
import { memberNameOf } from './member';

export type UploadRow = Pick<
  Upload,
  'id' | 'fileName' | 'title' | 'createdAt' | 'visibility' | 'sizeBytes' | 'totalChunks'
>;
export type UploadCreator = Pick<User, 'email' | 'photoUrl' | 'displayName' | 'firstName' | 'lastName'>;

export function presentUpload(upload: UploadRow, creator: UploadCreator | null): UploadedDocument {
  return {
    id: upload.id,
    name: upload.fileName,
    title: upload.title ?? upload.fileName,
    created_at: upload.createdAt.toISOString(),
    creator: creator ? { icon: creator.photoUrl, name: memberNameOf(creator), email: creator.email } : null,
    visibility: (UPLOAD_VISIBILITIES as readonly string[]).includes(upload.visibility)
      ? (upload.visibility as UploadVisibility)
      : 'PRIVATE',
    size_bytes: upload.sizeBytes,
    total_chunks: upload.totalChunks,
  };
}
