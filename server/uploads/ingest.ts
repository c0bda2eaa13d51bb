// From received files to stored uploads. Each file is parsed before it is stored (in a worker thread, never on
// the request thread: a zip's documents are inflated there too), so a file with no text is refused with the
// spec's 400 and leaves nothing behind. A file that parses is stored in one transaction with its text and the job
// that indexes it: a crash leaves the upload, still to be indexed (total_chunks -1), or nothing. Its bytes follow
// a piece at a time outside that transaction (blobs.ts), so a large file never holds the store.
import { open, readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, gt, sql } from 'drizzle-orm';
import {
  isSitePage,
  uploadMessages,
  type UploadFailure,
  type UploadVisibility,
} from '../../common/api/uploads';
import { ERROR_HTTP_STATUS } from '../../common/errors';
import { cleanUploadName, isAcceptedUpload, isZipUpload, uploadExtension } from '../../common/uploads';
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
  type ParsedFile,
  type ZipEntry,
} from '../parsing';
import { parseArchiveEntryIsolated, parseFileIsolated } from '../parsing/isolated';
import { writeUploadBytes } from './blobs';
import { archiveFiles } from './site-archives';
import { UPLOAD_INDEX_JOB } from './index-job';
import type { ReceivedFile, UploadLimits } from './receive';

export interface IngestResult {
  stored: Upload[];
  failed: Array<UploadFailure & { error: ApiError }>;
}

/** A file to parse: its own bytes, or an entry of a zip (`bytes` is then the zip, inflated in the worker). */
interface Candidate {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
  entry?: ZipEntry;
  /** What parsing it costs the uploader's daily budget: its size, inflated. */
  size: number;
}

/** Parses held in flight at once by this process: each may take a worker thread with a large heap. */
const MAX_CONCURRENT_PARSES = 2;
let parsesRunning = 0;
const parseQueue: Array<() => void> = [];

async function parseLimited(candidate: Candidate): Promise<{ parsed: ParsedFile; bytes: Uint8Array }> {
  if (parsesRunning >= MAX_CONCURRENT_PARSES) await new Promise<void>((wake) => parseQueue.push(wake));
  parsesRunning++;
  try {
    const input = { fileName: candidate.name, mimeType: candidate.mimeType, bytes: candidate.bytes };
    if (candidate.entry) return await parseArchiveEntryIsolated(input, candidate.entry);
    return { parsed: await parseFileIsolated(input), bytes: candidate.bytes };
  } finally {
    parsesRunning--;
    parseQueue.shift()?.();
  }
}

/** Bytes read a piece at a time: the whole of a large file in one read would hold the thread while it copies. */
const READ_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * A received file's bytes in shared memory, so the parsing worker reads them where they are: posting an
 * ordinary buffer of hundreds of megabytes to a worker copies it on the event loop.
 */
async function readShared(path: string): Promise<Uint8Array> {
  const handle = await open(path);
  try {
    const { size } = await handle.stat();
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(READ_PIECE_BYTES, size - at), at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/** What the member stored in the last day, the part of UPLOAD_BYTES_PER_DAY already spent. */
async function bytesStoredToday(db: Db, viewer: Viewer): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${uploads.sizeBytes}), 0)` })
    .from(uploads)
    .where(
      and(
        eq(uploads.orgId, viewer.orgId),
        eq(uploads.creatorId, viewer.userId),
        gt(uploads.createdAt, sql`now() - interval '1 day'`),
      ),
    );
  return Number(row?.bytes ?? 0);
}

function apiErrorOf(error: ParseError): ApiError {
  return new ApiError(ERROR_HTTP_STATUS[error.code], error.code, error.message);
}

export class Ingest {
  readonly result: IngestResult = { stored: [], failed: [] };
  #spentToday: number | null = null;

  constructor(
    private readonly db: Db,
    private readonly viewer: Viewer,
    private readonly visibility: UploadVisibility,
    private readonly logger: FastifyBaseLogger,
    private readonly limits: Pick<UploadLimits, 'maxFileBytes' | 'bytesPerDay'>,
  ) {}

  refuse(name: string, error: ApiError): void {
    this.result.failed.push({ name, code: error.code, message: error.message, error });
  }

  /** Counts `size` against the member's daily budget; the refusal instead when it would go past it. */
  async #spend(name: string, size: number): Promise<ApiError | null> {
    this.#spentToday ??= await bytesStoredToday(this.db, this.viewer);
    if (this.#spentToday + size > this.limits.bytesPerDay) {
      return new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        uploadMessages.dailyLimitReached(name, this.limits.bytesPerDay),
      );
    }
    this.#spentToday += size;
    return null;
  }

  /** #spend, refusing the file when it is over the budget. */
  async #withinBudget(name: string, size: number): Promise<boolean> {
    const refusal = await this.#spend(name, size);
    if (refusal) this.refuse(name, refusal);
    return refusal === null;
  }

  /** A file of POST /document_uploads: refused when too large or of a type Scout does not read. */
  async addFile(file: ReceivedFile): Promise<void> {
    if (file.tooLarge) {
      this.refuse(file.name, new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(file.name)));
    } else if (!isAcceptedUpload({ name: file.name, type: file.mimeType })) {
      this.refuse(file.name, unsupported(file.name));
    } else if (await this.#withinBudget(file.name, file.size)) {
      await this.#add({
        name: file.name,
        mimeType: file.mimeType,
        bytes: await readShared(file.path),
        size: file.size,
      });
    }
  }

  /** The zip of POST /document_uploads/zip: each document of a supported type in it becomes an upload. */
  async addZip(file: ReceivedFile): Promise<void> {
    if (file.tooLarge) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(file.name));
    if (!isZipUpload({ name: file.name, type: file.mimeType })) throw badRequest(uploadMessages.NOT_A_ZIP);
    const bytes = await readShared(file.path);
    // only the directory is read here; entries are inflated by the parsing workers
    const entries = readArchive(bytes).map((entry) => ({ ...entry, name: cleanUploadName(entry.name) }));
    const documents = entries.filter((entry) => isAcceptedUpload({ name: entry.name }));
    if (documents.length === 0) throw badRequest(uploadMessages.NO_DOCUMENTS_IN_ZIP);
    for (const entry of entries) {
      if (!documents.includes(entry)) this.refuse(entry.name, unsupported(entry.name));
    }
    for (const entry of documents) {
      if (entry.size > this.limits.maxFileBytes) {
        this.refuse(entry.name, new ApiError(413, 'PAYLOAD_TOO_LARGE', fileStrings.fileTooLarge(entry.name)));
        continue;
      }
      if (!(await this.#withinBudget(entry.name, entry.size))) continue;
      await this.#add({ name: entry.name, mimeType: '', bytes, entry, size: entry.size });
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
    const refusal = await this.#spend(file.name, bytes.length);
    if (refusal) throw refusal;
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
      return row!;
    });
    await writeUploadBytes(this.db, { orgId, uploadId: id }, bytes);
    this.result.stored.push(stored);
  }

  async #add(candidate: Candidate): Promise<void> {
    let parsed: ParsedFile;
    let bytes: Uint8Array;
    try {
      ({ parsed, bytes } = await parseLimited(candidate));
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
    this.result.stored.push(await this.#store(candidate, parsed, bytes));
  }

  async #store(candidate: Candidate, parsed: ParsedFile, bytes: Uint8Array): Promise<Upload> {
    const { orgId, userId } = this.viewer;
    const id = newId();
    const stored = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(uploads)
        .values({
          id,
          orgId,
          fileName: candidate.name,
          mimeType: candidate.mimeType || null,
          sizeBytes: bytes.length,
          visibility: this.visibility,
          creatorId: userId,
          title: parsed.title,
          fileType: uploadExtension(candidate.name).slice(1) || parsed.fileType,
          parsedText: parsed.text,
        })
        .returning();
      await enqueueJob(tx, { kind: UPLOAD_INDEX_JOB, orgId, payload: { uploadId: id } });
      return row!;
    });
    await writeUploadBytes(this.db, { orgId, uploadId: id }, bytes);
    return stored;
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
