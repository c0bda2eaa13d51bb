// Uploaded files (spec shell-and-account §7.3, asking-questions §3 Uploaded document, §5, §7): `GET`,
// `POST /document_uploads` (multipart: one or more `file` parts and a `visibility` field), `POST
// /document_uploads/zip` (one zip whose documents are uploaded each on its own) and `DELETE
// /document_uploads/{id}`. Field names are the spec's wire names. A zip sent with a `site-id` header is a site's
// export archive (Google Sites): it is kept whole for the site's connector instead of being split into files.
import { z } from 'zod';

/** PRIVATE: only the uploader finds the file; ORG: everyone in the workspace does. */
export const UPLOAD_VISIBILITIES = ['PRIVATE', 'ORG'] as const;
export type UploadVisibility = (typeof UPLOAD_VISIBILITIES)[number];
export const DEFAULT_UPLOAD_VISIBILITY: UploadVisibility = 'PRIVATE';

/** Multipart field names. */
export const UPLOAD_FILE_FIELD = 'file';
export const UPLOAD_VISIBILITY_FIELD = 'visibility';

/** The header naming the site an uploaded export archive belongs to; the connect dialog generates the id. */
export const SITE_ID_HEADER = 'site-id';

/** A generated site id: the install payload's `site_id` and the upload's header must match it exactly. */
export const siteIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'site-id must be 1 to 128 letters, digits, dashes or underscores.');

/** The files of a site archive that are pages; the rest (images, attachments, styles) are not indexed. */
export function isSitePage(path: string): boolean {
  return /\.html?$/i.test(path);
}

/** The server's refusals (ours: the spec quotes only the app's toasts and the no-content 400). */
export const uploadMessages = {
  NOT_FOUND: 'File not found.',
  NO_FILE: 'Choose a file to upload.',
  INVALID_VISIBILITY: `visibility must be one of ${UPLOAD_VISIBILITIES.join(', ')}.`,
  NOT_MULTIPART: 'Send the files as multipart/form-data.',
  ONLY_CREATOR_OR_ADMIN: 'Only the person who uploaded this file, or an admin, can delete it.',
  NOT_A_ZIP: 'Upload a single .zip file here.',
  NO_DOCUMENTS_IN_ZIP: 'The zip file holds no documents of a supported type.',
  SITE_ARCHIVE_ZIP_ONLY: "Upload a site's export as a single .zip file to /document_uploads/zip.",
  NO_PAGES_IN_SITE_ARCHIVE: 'The site archive holds no HTML pages.',
  unsupportedType: (file: string) => `${file}: file type not supported.`,
  // ours: the spec names no per-member upload limits
  TOO_MANY_UPLOADS: 'Too many uploads at once. Please wait a minute and try again.',
  dailyLimitReached: (file: string, limitBytes: number) =>
    `Failed to upload file: ${file}. You have reached your upload limit of ${limitBytes / 1024 ** 3}GB a day.`,
} as const;

export const uploadCreatorSchema = z.object({
  icon: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

/** An uploaded document as the files screen and the scope selector show it. */
export const uploadedDocumentSchema = z.object({
  id: z.uuid(),
  /** The file's name as uploaded (inside a zip: its path there). */
  name: z.string(),
  /** The document's own title (PDF metadata, first heading…), else the name without its extension. */
  title: z.string(),
  /** ISO-8601. */
  created_at: z.string(),
  creator: uploadCreatorSchema.nullable(),
  visibility: z.enum(UPLOAD_VISIBILITIES),
  size_bytes: z.number().int().min(0),
  /** Chunks in the index; -1 until the file is indexed. */
  total_chunks: z.number().int(),
});
export type UploadedDocument = z.infer<typeof uploadedDocumentSchema>;

export const uploadListResponseSchema = z.object({ documents: z.array(uploadedDocumentSchema) });
export type UploadListResponse = z.infer<typeof uploadListResponseSchema>;

/** A file of the request that was not stored, and why (its status would have been the error's). */
export const uploadFailureSchema = z.object({ name: z.string(), code: z.string(), message: z.string() });
export type UploadFailure = z.infer<typeof uploadFailureSchema>;

/**
 * Per-file results. The first stored document's fields are also at the top level, so a one-file upload answers
 * "a document with id and name" as the spec's client reads it. When nothing is stored the call fails instead,
 * with the first file's error (400 'No content was parsed from the file.' for an empty one).
 */
export const uploadResponseSchema = uploadedDocumentSchema.extend({
  documents: z.array(uploadedDocumentSchema).min(1),
  failed: z.array(uploadFailureSchema),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const uploadParamsSchema = z.object({ id: z.uuid() });
