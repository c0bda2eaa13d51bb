import multipart from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  uploadListResponseSchema,
  uploadParamsSchema,
  uploadMessages,
  uploadResponseSchema,
  type UploadResponse,
} from '../../../common/api/uploads';
import { UPLOAD_MAX_ZIP_FILES } from '../../../common/limits';
import { RateLimiter } from '../../auth/rate-limit';
import type { Viewer } from '../../context';
import { users } from '../../db/schema';
import type { Db } from '../../db/store';
import { ApiError, badRequest } from '../../errors';
import { viewerOf } from '../../policies/access';
import { assertMayUploadWith } from '../../policies/uploads';
import { presentUpload } from '../../presenters/upload';
import { Ingest, type IngestResult } from '../../uploads/ingest';
import { deleteUpload, listUploads } from '../../uploads/manage';
import { DEFAULT_UPLOAD_LIMITS, receiveUpload, type UploadLimits } from '../../uploads/receive';

/**
 * Uploaded files (spec shell-and-account §7.3, asking-questions §5), and sites' export archives: a zip sent with a
 * site-id header is kept whole for the site's connector (Google Sites: a single zip file only). The limits are
 * options so a test can prove the size refusal without sending a gigabyte; the API registers the spec's.
 */
export const uploadRoutes: FastifyPluginAsyncZod<Partial<UploadLimits>> = async (app, options) => {
  const { db } = app.ctx.store;
  const limits: UploadLimits = { ...DEFAULT_UPLOAD_LIMITS, ...options };
  const requests = new RateLimiter();
  /** Counts the request against its sender's rate before a byte of the body is read; 429 past it. */
  const admit = (viewer: Viewer) => {
    const waitMs = requests.take([
      { key: viewer.userId, max: limits.requestsPerMinute, windowMs: MINUTE_MS },
    ]);
    if (waitMs !== null) {
      throw new ApiError(429, 'RATE_LIMITED', uploadMessages.TOO_MANY_UPLOADS, {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      });
    }
  };
  // Registered here, not app-wide: only these routes take multipart bodies. A too-large file is reported by name
  // among the other files' results rather than aborting the whole request.
  await app.register(multipart, { throwFileSizeLimit: false });

  app.get(
    '/document_uploads',
    { config: { access: 'signedIn' }, schema: { response: { 200: uploadListResponseSchema } } },
    async (request) => ({ documents: await listUploads(db, viewerOf(request)) }),
  );

  app.post(
    '/document_uploads',
    { config: { access: 'signedIn' }, schema: { response: { 200: uploadResponseSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      admit(viewer);
      const received = await receiveUpload(request, limits);
      try {
        if (received.siteId !== null) throw badRequest(uploadMessages.SITE_ARCHIVE_ZIP_ONLY);
        assertMayUploadWith(received.visibility, viewer);
        const ingest = new Ingest(db, viewer, received.visibility, request.log, limits);
        for (const file of received.files) await ingest.addFile(file);
        return await answer(db, viewer, ingest.result);
      } finally {
        await received.discard();
      }
    },
  );

  app.post(
    '/document_uploads/zip',
    { config: { access: 'signedIn' }, schema: { response: { 200: uploadResponseSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      admit(viewer);
      const received = await receiveUpload(request, { ...limits, maxFiles: UPLOAD_MAX_ZIP_FILES });
      try {
        assertMayUploadWith(received.visibility, viewer);
        const ingest = new Ingest(db, viewer, received.visibility, request.log, limits);
        const [zip] = received.files;
        if (received.siteId === null) await ingest.addZip(zip!);
        else await ingest.addSiteArchive(zip!, received.siteId);
        return await answer(db, viewer, ingest.result);
      } finally {
        await received.discard();
      }
    },
  );

  app.delete(
    '/document_uploads/:id',
    { config: { access: 'signedIn' }, schema: { params: uploadParamsSchema } },
    async (request, reply) => {
      await deleteUpload(db, viewerOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
};

const MINUTE_MS = 60_000;

/** Per-file results; with nothing stored, the call fails with the first file's refusal. */
async function answer(db: Db, viewer: Viewer, result: IngestResult): Promise<UploadResponse> {
  const [first, ...rest] = result.stored;
  if (!first) throw result.failed[0]!.error;
  const [creator] = await db
    .select()
    .from(users)
    .where(and(eq(users.orgId, viewer.orgId), eq(users.id, viewer.userId)));
  const documents = [first, ...rest].map((upload) => presentUpload(upload, creator ?? null));
  return {
    ...documents[0]!,
    documents,
    failed: result.failed.map(({ name, code, message }) => ({ name, code, message })),
  };
}
