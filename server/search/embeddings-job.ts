// The embedding backfill: embeds every chunk still without a vector (written inside a sync's transaction, or left
// over when the provider was down or rate-limited). The indexer queues it after a sync batch; the schedule runs it
// every few minutes as the retry of whatever failed. Without a provider or pgvector it does nothing.
import { DEFAULT_LEASE_MS } from '../jobs/queue';
import type { Schedule } from '../jobs/schedule';
import { registerJobHandler } from '../jobs/worker';
import { EMBEDDINGS_BACKFILL_JOB, embedPendingChunks, ensureEmbeddings } from './embeddings';

export const EMBEDDINGS_BACKFILL_EVERY_MS = 5 * 60_000;
/** A pass stops within the job's lease, so no second worker takes the job over while it still runs. */
const PASS_BUDGET_MS = DEFAULT_LEASE_MS - 60_000;

export const embeddingsBackfillSchedule: Schedule = {
  kind: EMBEDDINGS_BACKFILL_JOB,
  everyMs: EMBEDDINGS_BACKFILL_EVERY_MS,
};

registerJobHandler(EMBEDDINGS_BACKFILL_JOB, async (_job, { store, logger, signal }) => {
  const index = await ensureEmbeddings(store.db);
  if (!index) return;
  const result = await embedPendingChunks(store.db, index, { signal, until: Date.now() + PASS_BUDGET_MS });
  if (result.embedded + result.failed > 0) logger.info({ ...result }, 'search: embedding backfill pass');
});
