// Connects abandoned in the popup leave their app_oauth_states row behind (a used state is deleted by its
// callback). An expired row can never be used, since the callback requires an unexpired one, so the hourly
// `oauth.states-cleanup` job deletes them rather than let them pile up.
import { lt } from 'drizzle-orm';
import { appOauthStates } from '../../db/schema';
import type { Db } from '../../db/store';
import type { Schedule } from '../../jobs/schedule';
import { registerJobHandler } from '../../jobs/worker';

export const OAUTH_STATES_CLEANUP_JOB = 'oauth.states-cleanup';
export const oauthStatesCleanupSchedule: Schedule = { kind: OAUTH_STATES_CLEANUP_JOB, everyMs: 60 * 60_000 };

/** Deletes the states that expired before `now`; answers how many went. */
export async function deleteExpiredOAuthStates(db: Db, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(appOauthStates)
    .where(lt(appOauthStates.expiresAt, now))
    .returning({ id: appOauthStates.id });
  return deleted.length;
}

registerJobHandler(OAUTH_STATES_CLEANUP_JOB, async (_job, { store, logger }) => {
  const deleted = await deleteExpiredOAuthStates(store.db);
  if (deleted > 0) logger.info({ deleted }, 'expired OAuth states deleted');
});
