// The apps a member can search and how many of each app's documents they may read, for the question box's source
// picker. Counts go through the member's principals (acl.ts), the same test every search applies, so no count says
// anything about a document the member cannot read.
import { and, eq, or, sql } from 'drizzle-orm';
import type { SearchableSourcesResponse } from '../../common/api/sources';
import { getApp, isInstant } from '../../common/catalogue';
import { isEnabledConnection } from '../../common/connection-status';
import { ReferenceSource } from '../../common/api/messages';
import type { Viewer } from '../context';
import { appConnections, documents } from '../db/schema';
import type { DbOrTx } from '../db/store';
import { principalsFor } from './acl';

/** Readable documents per source. */
async function readableCounts(db: DbOrTx, viewer: Viewer): Promise<Map<string, number>> {
  const principals = await principalsFor(db, viewer.orgId, viewer.email);
  const rows = await db
    .select({ source: documents.source, numDocs: sql<number>`count(*)::int` })
    .from(documents)
    .where(and(eq(documents.orgId, viewer.orgId), sql`${documents.acl} && ${sql.param(principals)}::text[]`))
    .groupBy(documents.source);
  return new Map(rows.map((row) => [row.source, Number(row.numDocs)]));
}

/** Apps with a working connection the member's questions search: the org's and the member's own. */
async function connectedApps(db: DbOrTx, viewer: Viewer): Promise<Set<string>> {
  const rows = await db
    .select({
      appName: appConnections.appName,
      isOrg: appConnections.isOrg,
      statusCode: appConnections.statusCode,
    })
    .from(appConnections)
    .where(
      and(
        eq(appConnections.orgId, viewer.orgId),
        or(eq(appConnections.isOrg, true), eq(appConnections.userId, viewer.userId)),
      ),
    );
  const names = new Set<string>();
  for (const row of rows) {
    const app = getApp(row.appName);
    if (!app) continue;
    const enabled = isEnabledConnection({
      statusCode: row.statusCode,
      progress: 0,
      isOrg: row.isOrg,
      isInstant: isInstant(app, row.isOrg),
    });
    if (enabled) names.add(app.shortname);
  }
  return names;
}

/**
 * Every catalogue app the member can search: a working connection of theirs or the org's (listed with 0 while it
 * has indexed nothing), or documents they may read (a group's content synced through a colleague's connection,
 * documents pushed without a connection). Uploads and verified answers are counted apart.
 */
export async function searchableSources(db: DbOrTx, viewer: Viewer): Promise<SearchableSourcesResponse> {
  const [counts, connected] = await Promise.all([readableCounts(db, viewer), connectedApps(db, viewer)]);
  const apart = new Set<string>([ReferenceSource.files, ReferenceSource.verifiedAnswers]);
  const names = new Set(connected);
  for (const [source, numDocs] of counts)
    if (numDocs > 0 && !apart.has(source) && getApp(source)) names.add(source);
  return {
    apps: [...names].sort().map((appName) => ({ appName, numDocs: counts.get(appName) ?? 0 })),
    files: { numDocs: counts.get(ReferenceSource.files) ?? 0 },
    answers: { numDocs: counts.get(ReferenceSource.verifiedAnswers) ?? 0 },
  };
}
