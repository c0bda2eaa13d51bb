// Reading a multipart upload: every file part streams to its own temporary file as it arrives, so a request
// costs disk, not memory, however large its files; the visibility field may come before or after the files.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_UPLOAD_VISIBILITY,
  SITE_ID_HEADER,
  UPLOAD_FILE_FIELD,
  UPLOAD_VISIBILITIES,
  UPLOAD_VISIBILITY_FIELD,
  siteIdSchema,
  uploadMessages,
  type UploadVisibility,
} from '../../common/api/uploads';
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES } from '../../common/limits';
import { cleanUploadName, UPLOAD_BYTES_PER_DAY, UPLOAD_REQUESTS_PER_MINUTE } from '../../common/uploads';
import { validation } from '../../common/strings';
import { badRequest } from '../errors';

export interface UploadLimits {
  /** Bytes per file; a larger file is refused with the spec's 'File size is too large' message. */
  maxFileBytes: number;
  /** Files per request. */
  maxFiles: number;
  /** Upload requests per member a minute; past it, 429. */
  requestsPerMinute: number;
  /** Bytes per member parsed in a day; a file past it is refused with 413. */
  bytesPerDay: number;
}

export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = {
  maxFileBytes: UPLOAD_MAX_FILE_BYTES,
  maxFiles: UPLOAD_MAX_FILES,
  requestsPerMinute: UPLOAD_REQUESTS_PER_MINUTE,
  bytesPerDay: UPLOAD_BYTES_PER_DAY,
};

export interface ReceivedFile {
  name: string;
  mimeType: string;
  path: string;
  size: number;
  /** Over maxFileBytes: only its first bytes were kept, and it must be refused. */
  tooLarge: boolean;
}

export interface ReceivedUpload {
  files: ReceivedFile[];
  visibility: UploadVisibility;
  /** The site-id header: the files are a site's export archive. An empty header is no site id. */
  siteId: string | null;
  /** Removes the temporary files; call it once the files are stored or refused. */
  discard(): Promise<void>;
}

function siteIdOf(request: FastifyRequest): string | null {
  const header = request.headers[SITE_ID_HEADER];
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim();
  if (value === '') return null;
  const parsed = siteIdSchema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid site-id.');
  return parsed.data;
}

/** A visibility field longer than this is not one of ours; the cap keeps a hostile field from filling memory. */
const FIELD_MAX_BYTES = 256;

export async function receiveUpload(request: FastifyRequest, limits: UploadLimits): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw badRequest(uploadMessages.NOT_MULTIPART);
  const siteId = siteIdOf(request);
  const dir = await mkdtemp(path.join(tmpdir(), 'scout-upload-'));
  const discard = () => rm(dir, { recursive: true, force: true });
  try {
    const files: ReceivedFile[] = [];
    let visibility: string = DEFAULT_UPLOAD_VISIBILITY;
    const parts = request.parts({ limits: { fileSize: limits.maxFileBytes, fieldSize: FIELD_MAX_BYTES } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === UPLOAD_VISIBILITY_FIELD) visibility = String(part.value).trim().toUpperCase();
        continue;
      }
      if (part.fieldname !== UPLOAD_FILE_FIELD) {
        part.file.resume();
        continue;
      }
      if (files.length >= limits.maxFiles) throw badRequest(validation.tooManyFiles(limits.maxFiles));
      const target = path.join(dir, String(files.length));
      const sink = createWriteStream(target);
      await pipeline(part.file, sink);
      files.push({
        name: cleanUploadName(path.basename(part.filename || 'file')),
        mimeType: part.mimetype,
        path: target,
        size: sink.bytesWritten,
        tooLarge: part.file.truncated,
      });
    }
    if (files.length === 0) throw badRequest(uploadMessages.NO_FILE);
    if (!(UPLOAD_VISIBILITIES as readonly string[]).includes(visibility)) {
      throw badRequest(uploadMessages.INVALID_VISIBILITY);
    }
    return { files, visibility: visibility as UploadVisibility, siteId, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}
