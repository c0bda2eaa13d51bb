// Sites' export archives (Google Sites): a zip uploaded with a site-id header is kept whole, bytes and all, as an
// upload row carrying the site id, and read back by the site's connector through the SDK's SiteArchives. The
// connector reads pages one at a time while it syncs, so the server lends it the hardened zip reader rather than
// unpacking everything up front; it never sees the store, only the archives the connection's owner may read.
import { and, desc, eq, or } from 'drizzle-orm';
import { FatalSourceError, type SiteArchive, type SiteArchives } from '../../connectors/sdk';
import { uploads } from '../db/schema';
import type { Db } from '../db/store';
import { ParseError } from '../parsing/errors';
import { DEFAULT_PARSE_LIMITS } from '../parsing/limits';
import { readZipDirectory, readZipEntry, type ZipEntry } from '../parsing/zip';
import { readUploadBytes } from './blobs';

/** Finder and resource-fork files that archivers add beside the real ones (__MACOSX/, .DS_Store, ._name). */
function isHiddenEntry(name: string): boolean {
  return name.split('/').some((segment) => segment.startsWith('.') || segment === '__MACOSX');
}

/** An archive's files as a user sees them: no folders, none of the archiver's hidden files. */
export function archiveFiles(entries: readonly ZipEntry[]): ZipEntry[] {
  return entries.filter((entry) => !entry.name.endsWith('/') && !isHiddenEntry(entry.name));
}

/** Whose archives a connection may read: the rule of the files screen, its owner's own and the org-wide ones. */
export interface ArchiveReader {
  orgId: string;
  /** The connection's owner; null once they have left, when only org-wide archives remain readable. */
  userId: string | null;
}

function unreadable(error: unknown): never {
  if (error instanceof ParseError)
    throw new FatalSourceError(`site archive: ${error.message}`, { cause: error });
  throw error;
}

export function siteArchivesFor(db: Db, reader: ArchiveReader): SiteArchives {
  return {
    async find(siteId: string): Promise<SiteArchive | null> {
      const readable = reader.userId
        ? or(eq(uploads.creatorId, reader.userId), eq(uploads.visibility, 'ORG'))
        : eq(uploads.visibility, 'ORG');
      const [row] = await db
        .select({ id: uploads.id, createdAt: uploads.createdAt, sizeBytes: uploads.sizeBytes })
        .from(uploads)
        .where(and(eq(uploads.orgId, reader.orgId), eq(uploads.siteId, siteId), readable))
        .orderBy(desc(uploads.createdAt), desc(uploads.id))
        .limit(1);
      if (!row) return null;
      const bytes = await readUploadBytes(db, {
        orgId: reader.orgId,
        uploadId: row.id,
        sizeBytes: row.sizeBytes,
      });
      if (!bytes) throw new FatalSourceError('site archive: its upload did not finish; upload it again');
      let entries: ZipEntry[];
      try {
        entries = archiveFiles(readZipDirectory(bytes, DEFAULT_PARSE_LIMITS.maxArchiveEntries));
      } catch (error) {
        unreadable(error);
      }
      const byPath = new Map(entries.map((entry) => [entry.name, entry]));
      return {
        id: row.id,
        uploadedAt: row.createdAt,
        files: entries.map((entry) => ({ path: entry.name, size: entry.size })),
        async read(path) {
          const entry = byPath.get(path);
          if (!entry) throw new FatalSourceError(`site archive: no file ${path}`);
          try {
            // inflated with the size the directory declares as a hard cap, so a lying entry cannot balloon
            return readZipEntry(bytes, entry);
          } catch (error) {
            unreadable(error);
          }
        },
      };
    },
  };
}

/** Removes the archives uploaded under a site id (their bytes go with them): a disconnected site keeps none. */
export async function deleteSiteArchives(db: Db, orgId: string, siteId: string): Promise<void> {
  await db.delete(uploads).where(and(eq(uploads.orgId, orgId), eq(uploads.siteId, siteId)));
}
