// SharePoint Online, connected org-wide by the tenant's admin consent (every site) or by a member (the sites Graph's
// search lists to them). Each site's document libraries are drives, each file readable by whom its permissions say
// (./graph.ts); its site pages likewise, or by the site's Microsoft 365 group where they inherit the site's, and its
// list items, whose readers Graph cannot name, by nobody (./site-content.ts, which says why and where that stops).
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { defineConnector, type SyncBatch } from '../sdk';
import { tenantConfigSchema, type Graph } from '../microsoft/app-only';
import { MICROSOFT_LOGIN_URL, microsoftOAuth } from '../microsoft/graph';
import {
  driveCredentialsSchema,
  driveGraph,
  driveSync,
  SHAREPOINT_ONLINE,
  isOrgDrive,
  type DriveContext,
  type DriveRef,
} from './graph';
import {
  listSites,
  readContentCursor,
  siteContentAcls,
  siteContentIds,
  siteName,
  siteOfContent,
  siteReaderMemberships,
  siteSchema,
  syncSiteContent,
  type ContentCursor,
} from './site-content';

const SHORTNAME = 'sharepoint';
const graphOf = driveGraph(SHORTNAME);

const driveSchema = z.object({ id: z.string(), name: z.string().nullish() });

/** Every site's document libraries. */
async function listDrives(graph: Graph): Promise<DriveRef[]> {
  const drives: DriveRef[] = [];
  for (const site of await listSites(graph)) {
    const libraries = graph.pages(`/sites/${encodeURIComponent(site.id)}/drives`, driveSchema, {
      $select: 'id,name',
    });
    for await (const batch of libraries) {
      for (const drive of batch)
        drives.push({ id: drive.id, name: `${siteName(site)} / ${drive.name || 'Documents'}` });
    }
  }
  return drives;
}

const drives = driveSync(graphOf, listDrives);

/**
 * Where a sync stands: the drives' cursor (./graph.ts) and the site content's. A cursor of the drives alone, as
 * syncs before site content was indexed left it, continues the drives and reads the site content from the start.
 */
const sharePointCursorSchema = z.object({ v: z.literal(2), drives: z.json(), content: z.json().nullable() });

/** The drives take this share of the progress bar, the sites' pages and lists the rest. */
const DRIVES_SHARE = 0.8;
/** Batches without changes folded into the next one at most, so a quiet tenant does not commit a batch per site. */
const QUIET_BATCHES = 50;

/**
 * The drives' batches, then the site content's from `content`. Each batch's cursor holds both halves, so any
 * batch is a checkpoint. A batch without changes is held back and its cursor carried by the next one (up to
 * QUIET_BATCHES of them); the last batch is always yielded.
 */
async function* syncSharePoint(
  ctx: DriveContext,
  driveBatches: AsyncIterable<SyncBatch>,
  content: ContentCursor | null,
): AsyncGenerator<SyncBatch> {
  let held: SyncBatch | undefined;
  let quiet = 0;
  const scaled = (batch: SyncBatch, from: number, width: number): SyncBatch => {
    const share = batch.progress?.share;
    return share === undefined ? batch : { ...batch, progress: { share: from + share * width } };
  };
  async function* fold(batch: SyncBatch) {
    if (
      batch.documents.length === 0 &&
      (batch.deletedExternalIds ?? []).length === 0 &&
      ++quiet < QUIET_BATCHES
    ) {
      held = batch;
      return;
    }
    quiet = 0;
    held = undefined;
    yield batch;
  }

  let driveCursor: SyncBatch['cursor'] = null;
  for await (const batch of driveBatches) {
    driveCursor = batch.cursor;
    yield* fold(scaled({ ...batch, cursor: { v: 2, drives: batch.cursor, content } }, 0, DRIVES_SHARE));
  }
  const graph = graphOf(ctx);
  for await (const batch of syncSiteContent(ctx, graph, await listSites(graph), content)) {
    const cursor = { v: 2, drives: driveCursor, content: batch.cursor };
    yield* fold(scaled({ ...batch, cursor }, DRIVES_SHARE, 1 - DRIVES_SHARE));
  }
  if (held) yield held;
}

/** Delegated: the sites and files the member may read, basic profiles and group memberships for the ACLs. */
export const SHAREPOINT_SCOPES = [
  'Sites.Read.All',
  'Files.Read.All',
  'User.ReadBasic.All',
  'GroupMember.Read.All',
] as const;

/** Builds the connector; tests point the OAuth endpoints at a fake identity platform. */
export function createSharePointConnector(options: { loginUrl?: string } = {}) {
  return defineConnector({
    shortname: SHORTNAME,
    installPayload: { org: 'marketplace', individual: 'oauth' },
    credentialsSchema: driveCredentialsSchema,
    configSchema: tenantConfigSchema,
    credentialFields: [],
    credentialName: CREDENTIAL_NAMES.credentials,
    ...SHAREPOINT_ONLINE,
    oauth: microsoftOAuth(SHAREPOINT_SCOPES, options.loginUrl ?? MICROSOFT_LOGIN_URL),

    async validate(ctx) {
      const root = await graphOf(ctx).json('/sites/root', siteSchema, {
        query: { $select: 'id,displayName,name' },
      });
      return {
        workspaceName: root.displayName || root.name || undefined,
        ...(isOrgDrive(ctx) ? { email: ctx.credentials.email } : {}),
      };
    },

    fullSync(ctx) {
      return syncSharePoint(ctx, drives.fullSync(ctx), null);
    },

    incrementalSync(ctx, saved) {
      const cursor = sharePointCursorSchema.safeParse(saved);
      if (!cursor.success) return syncSharePoint(ctx, drives.incrementalSync(ctx, saved), null);
      return syncSharePoint(
        ctx,
        drives.incrementalSync(ctx, cursor.data.drives),
        readContentCursor(cursor.data.content),
      );
    },

    async *listIds(ctx) {
      yield* drives.listIds(ctx);
      const graph = graphOf(ctx);
      yield* siteContentIds(graph, await listSites(graph));
    },

    async *permissions(ctx) {
      yield* drives.permissions(ctx);
      const graph = graphOf(ctx);
      yield* siteReaderMemberships(graph, await listSites(graph));
    },

    async documentAcls(ctx, externalIds) {
      const files = externalIds.filter((externalId) => siteOfContent(externalId) === undefined);
      return [
        ...(files.length > 0 ? await drives.documentAcls(ctx, files) : []),
        ...(await siteContentAcls(graphOf(ctx), externalIds)),
      ];
    },
  });
}

export const sharepointConnector = createSharePointConnector();
