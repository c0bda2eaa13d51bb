import { eq } from 'drizzle-orm';
import { parseFlags, type Flags } from '../../common/flags';
import type { Viewer } from '../context';
import { orgs } from '../db/schema';
import type { DbOrTx } from '../db/store';

/**
 * Who sees an answer's debug logs (the live DEBUG_LOGS message and a stored message's debugLogs): admins, and only
 * where the org turned the debugLogs flag on. They describe retrieval (what was found, in which order, how long
 * each stage took), which is for tuning the product, not for every member.
 */
export function mayReadDebugLogs(viewer: Pick<Viewer, 'admin'>, flags: Pick<Flags, 'debugLogs'>): boolean {
  return viewer.admin && flags.debugLogs;
}

/** `mayReadDebugLogs` for a reader whose org's flags are not loaded yet (a member's never are). */
export async function viewerReadsDebugLogs(
  db: DbOrTx,
  viewer: Pick<Viewer, 'admin' | 'orgId'>,
): Promise<boolean> {
  if (!viewer.admin) return false;
  const [org] = await db.select({ flags: orgs.flags }).from(orgs).where(eq(orgs.id, viewer.orgId)).limit(1);
  return mayReadDebugLogs(viewer, parseFlags(org?.flags));
}
