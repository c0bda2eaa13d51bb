// From received files to stored uploads. Each file is parsed before it is stored (in a worker thread, never on
// the request thread), so a file with no text is refused with the spec's 400 and leaves nothing behind. A file
// that parses is stored in one transaction with its bytes, its text and the job that indexes it: a crash leaves
// the whole upload, still to be indexed (total_chunks -1), or nothing.
import { readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import {
  isSitePage,
  uploadMessages,
  type UploadFailure,
  type UploadVisibility,
} from '../../common/api/uploads';
import { ERROR_HTTP_STATUS } from '../../common/errors';
import { isAcceptedUpload, isZipUpload, uploadExtension } from '../../common/uploads';
import { files as fileStrings, validation } from '../../common/strings';
import type { Viewer } from '../context';
import { newId } from '../db/ids';
import { uploads, type Upload } from '../db/schema';
import type { Db } from '../db/store';
import { ApiError, badRequest } from '../errors';
import { enqueueJob } from '../jobs/queue';
import {
  DEFAULT_PARSE_LIMITS,
  NoContentError,
  ParseError,
  readZipDirectory,
  readZipEntry,
  type ParsedFile,
  type ZipEntry,
} from '../parsing';
import { parseFileIsolated } from '../parsing/isolated';
import { writeUploadBytes } from './blobs';
import { archiveFiles } from './site-archives';
import { UPLOAD_INDEX_JOB } from './index-job';
import type { ReceivedFile, UploadLimits } from './receive';

export interface IngestResult {
  stored: Upload[];
  failed: Array<UploadFailure & { error: ApiError }>;
}

interface Candidate {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** Parses held in flight at once by this process: each may take a worker thread with a large heap. */
const MAX_CONCURRENT_PARSES = 2;
let parsesRunning = 0;
const parseQueue: Array<() => void> = [];

async function parseLimited(candidate: Candidate): Promise<ParsedFile> {
  if (parsesRunning >= MAX_CONCURRENT_PARSES) await new Promise<void>((wake) => parseQueue.push(wake));
  parsesRunning++;
  try {
    return await parseFileIsolated({
      fileName: candidate.name,
      mimeType: candidate.mimeType,
      bytes: candidate.bytes,
    });
  } finally {
    parsesRunning--;
    parseQueue.shift()?.();
  }
}

function apiErrorOf(error: ParseError): ApiError {
  return new ApiError(ERROR_HTTP_STATUS[error.code], error.code, error.message);
}

export class Ingest {
  readonly result: IngestResult = { stored: [], failed: [] };

  constructor(
    private readonly db: Db,
    private readonly viewer: Viewer,
    private readonly visibility: UploadVisibility,
    private readonly logger: FastifyBaseLogger,
  ) {}

  refuse(name: string, error: ApiError): void {
    this.result.failed.push({ name, code: error.code, message: error.message, error });
  }

  /** A file of POST /document_uploads: refused when too large or of a type Scout does not read. */
  async addFile(file: ReceivedFile): Promise<void> {
    if (file.tooLarge) {
      this.refuse(file.name, new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(file.name)));
    } else if (!isAcceptedUpload({ name: file.name, type: file.mimeType })) {
      this.refuse(file.name, unsupported(file.name));
    } else {
      await this.#add({ name: file.name, mimeType: file.mimeType, bytes: await readFile(file.path) });
    }
  }

  /** The zip of POST /document_uploads/zip: each document of a supported type in it becomes an upload. */
  async addZip(file: ReceivedFile, limits: UploadLimits): Promise<void> {
    if (file.tooLarge) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(file.name));
    if (!isZipUpload({ name: file.name, type: file.mimeType })) throw badRequest(uploadMessages.NOT_A_ZIP);
    const bytes = await readFile(file.path);
    const entries = readArchive(bytes);
    const documents = entries.filter((entry) => isAcceptedUpload({ name: entry.name }));
    if (documents.length === 0) throw badRequest(uploadMessages.NO_DOCUMENTS_IN_ZIP);
    for (const entry of entries) {
      if (!documents.includes(entry)) this.refuse(entry.name, unsupported(entry.name));
    }
    for (const entry of documents) {
      if (entry.size > limits.maxFileBytes) {
        this.refuse(entry.name, new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(entry.name)));
        continue;
      }
      let entryBytes: Uint8Array;
      try {
        // inflated with the size the directory declares as a hard cap, so a lying entry cannot balloon
        entryBytes = readZipEntry(bytes, entry);
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        this.refuse(entry.name, apiErrorOf(error));
        continue;
      }
      await this.#add({ name: entry.name, mimeType: '', bytes: entryBytes });
    }
  }

  /**
   * A site's export archive (POST /document_uploads/zip with a site-id header): stored whole, once its directory
   * reads and it holds a page, for the site's connector to read when it syncs. It replaces the uploader's earlier
   * archive of the same site, as when they pick another file in the connect dialog.
   */
  async addSiteArchive(file: ReceivedFile, siteId: string): Promise<void> {
    if (file.tooLarge) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(file.name));
    if (!isZipUpload({ name: file.name, type: file.mimeType })) throw badRequest(uploadMessages.NOT_A_ZIP);
    const bytes = await readFile(file.path);
    if (!readArchive(bytes).some((entry) => isSitePage(entry.name)))
      throw badRequest(uploadMessages.NO_PAGES_IN_SITE_ARCHIVE);
    const { orgId, userId } = this.viewer;
    const id = newId();
    const stored = await this.db.transaction(async (tx) => {
      await tx
        .delete(uploads)
        .where(and(eq(uploads.orgId, orgId), eq(uploads.siteId, siteId), eq(uploads.creatorId, userId)));
      const [row] = await tx
        .insert(uploads)
        .values({
          id,
          orgId,
          fileName: file.name,
          mimeType: file.mimeType || null,
          sizeBytes: bytes.length,
          visibility: this.visibility,
          creatorId: userId,
          fileType: 'zip',
          siteId,
          // never indexed as a file: its pages are the connection's documents
          totalChunks: 0,
        })
        .returning();
      await writeUploadBytes(tx, { orgId, uploadId: id }, bytes);
      return row!;
    });
    this.result.stored.push(stored);
  }

  async #add(candidate: Candidate): Promise<void> {
    let parsed: ParsedFile;
    try {
      parsed = await parseLimited(candidate);
    } catch (error) {
      if (error instanceof ParseError) {
        this.refuse(candidate.name, apiErrorOf(error));
        return;
      }
      // a crashed worker is the file's failure too: to the user, it could not be parsed
      this.logger.warn({ err: error, file: candidate.name }, 'upload could not be parsed');
      this.refuse(candidate.name, apiErrorOf(new NoContentError('parser failed')));
      return;
    }
    this.result.stored.push(await this.#store(candidate, parsed));
  }

  async #store(candidate: Candidate, parsed: ParsedFile): Promise<Upload> {
    const { orgId, userId } = this.viewer;
    const id = newId();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(uploads)
        .values({
          id,
          orgId,
          fileName: candidate.name,
          mimeType: candidate.mimeType || null,
          sizeBytes: candidate.bytes.length,
          visibility: this.visibility,
          creatorId: userId,
          title: parsed.title,
          fileType: uploadExtension(candidate.name).slice(1) || parsed.fileType,
          parsedText: parsed.text,
        })
        .returning();
      await writeUploadBytes(tx, { orgId, uploadId: id }, candidate.bytes);
      await enqueueJob(tx, { kind: UPLOAD_INDEX_JOB, orgId, payload: { uploadId: id } });
      return row!;
    });
  }
}

function unsupported(name: string): ApiError {
  const extension = uploadExtension(name) || name;
  return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', validation.unsupportedFileTypes([extension]));
}

/** An uploaded zip's files, or the 400 (or 413) its unreadable directory deserves. */
function readArchive(bytes: Uint8Array): ZipEntry[] {
  try {
    return archiveFiles(readZipDirectory(bytes, DEFAULT_PARSE_LIMITS.maxArchiveEntries));
  } catch (error) {
    if (error instanceof ParseError) throw apiErrorOf(error);
    throw error;
  }
}
