// The connector benchmark's frame (`npm run bench:ingest -- --connectors-only`, issue 12): what a row is, the text
// the rows' fake workspaces are made of, and the run of one row. Rows live in bench/connectors/, one module per
// vendor; bench/connector-rows.ts lists them. Figures are printed, never asserted.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { and, count, eq, ilike, inArray } from 'drizzle-orm';
import type { Connector, RateLimit } from '../connectors/sdk';
import { documentChunks, documents, jobs } from '../server/db/schema';
import type { Store } from '../server/db/store';
import { runWorker } from '../server/jobs/worker';
import { createLogger } from '../server/logger';
import { initSearch } from '../server/search';
import { seededRandom } from '../server/testing/random';
import { createOrg, createUser } from '../server/testing/fixtures';
import { enqueueSync, syncDedupeKey } from '../server/sync/jobs';
import { registerConnector } from '../server/sync/registry';
import { insertConnection } from '../server/sync/testing/connections';
import { realTexts } from './search';

/** A connector and its fake, as a row of the connector benchmark. */
export interface ConnectorBenchRow<Fake, Credentials, Config> {
  readonly connector: Connector<Credentials, Config>;
  /** An org connection (an admin's, for the whole workspace) or a member's own. */
  readonly isOrg: boolean;
  /** Settings the connector reads from the server's environment (an app-only Azure app's client). */
  readonly env?: Readonly<Record<string, string>>;
  /** A fake workspace of exactly `items` items to index; `config` and `credentials` connect to it. */
  startWorkspace(items: number): Promise<{ fake: Fake; config: object; credentials: object }>;
  /**
   * Edits `changes` items of the workspace so the vendor's change feed reports them, each edit's text carrying
   * CHANGE_MARK, for the incremental sync to pick up.
   */
  change(fake: Fake, changes: number): void;
  /** Requests the workspace's fake has answered, every one a request the connector made of the vendor. */
  requests(fake: Fake): number;
  close(fake: Fake): Promise<void>;
}

/** A row, its types inferred from its connector and its fake. */
export const connectorRow = <Fake, Credentials, Config>(row: ConnectorBenchRow<Fake, Credentials, Config>) =>
  row;

/** A row of any vendor, as the runner takes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each row's fake and settings are its own
export type AnyConnectorBenchRow = ConnectorBenchRow<any, any, any>;

/** A word no generated text holds, so the changed items can be counted in the index after the incremental sync. */
export const CHANGE_MARK = 'zebracorrection';

/** A change's text: the edit and its mark, with some words so it is a real edit of the item's text. */
export const changedText = (n: number) =>
  `Correction ${n} (${CHANGE_MARK}): the figures in this item were revised after the review.`;

/**
 * `total` pieces of real text (the eval abstracts, then `/usr/share/doc` and the man pages, as `bench:search`
 * reads them), each of `min` to `max` characters, log-uniform so most are short as messages and pages are, each
 * with its source's title. The same seed gives the same pieces.
 */
export function* textPieces(
  total: number,
  { min, max, seed = 6 }: { min: number; max: number; seed?: number },
): Generator<{ title: string; body: string }> {
  const random = seededRandom(seed);
  let n = 0;
  for (let round = 0; n < total; round++) {
    const before = n;
    for (const { title, text } of realTexts()) {
      let at = 0;
      while (at < text.length && n < total) {
        const length = Math.round(min * (max / min) ** random());
        const body = text.slice(at, at + length).trim();
        at += length;
        if (body.length < Math.min(100, min / 2)) continue;
        yield { title: round === 0 ? title : `${title} (${round})`, body };
        n += 1;
      }
      if (n >= total) return;
    }
    if (n === before) throw new Error('no text to make items of');
  }
}

/** A text cut at sentence ends into paragraphs of about `size` characters, as pages and mails hold them. */
export function paragraphsOf(text: string, size = 400): string[] {
  const paragraphs: string[] = [];
  let current = '';
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    current = current ? `${current} ${sentence}` : sentence;
    if (current.length >= size) {
      paragraphs.push(current);
      current = '';
    }
  }
  if (current) paragraphs.push(current);
  return paragraphs;
}

export interface ConnectorRowOptions {
  /** Items in each connection's workspace. */
  items: number;
  connections: number;
  /** Items changed in each workspace before the incremental sync. */
  changes: number;
  /**
   * Lifts the connector's published request rate (its `limits.rate`) for the row, keeping its concurrency: the
   * figures are then Scout's own pace, and the vendor's allowance is the floor computed from the requests made.
   */
  unpaced?: boolean;
}

export interface ConnectorRowResult {
  app: string;
  options: ConnectorRowOptions;
  fullSeconds: number;
  /** The connections' documents and chunks after the full sync. */
  documents: number;
  chunks: number;
  incrementalSeconds: number;
  /** The connections' documents whose text holds CHANGE_MARK after the incremental sync. */
  changed: number;
  /** Requests the busiest connection made of its vendor in the full sync, and in the incremental sync. */
  fullRequests: number;
  incrementalRequests: number;
  /** The rate the connector publishes, whether or not the row kept to it. */
  rate: RateLimit | null;
  loadBefore: number;
  loadAfter: number;
}

/** Waits until every job of the dedupe keys has finished (done), failing on a failed one. */
async function jobsDone(store: Store, keys: readonly string[]): Promise<void> {
  for (;;) {
    const rows = await store.db
      .select({ status: jobs.status, lastError: jobs.lastError })
      .from(jobs)
      .where(inArray(jobs.dedupeKey, [...keys]));
    const failed = rows.find((row) => row.status === 'failed');
    if (failed) throw new Error(`a sync failed: ${failed.lastError}`);
    if (rows.length > 0 && rows.every((row) => row.status === 'done')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * `connections` connections of the row's app, each of its own workspace and in its own org (so the vendor limiter
 * shared by an org's connections paces each alone), full-sync at once through the worker's long lane; then
 * `changes` items change in each workspace and all sync incrementally.
 */
export async function benchConnectorRow(
  store: Store,
  row: AnyConnectorBenchRow,
  options: ConnectorRowOptions,
): Promise<ConnectorRowResult> {
  Object.assign(process.env, row.env);
  const { connector } = row;
  registerConnector(
    options.unpaced ? { ...connector, limits: { concurrency: connector.limits?.concurrency } } : connector,
  );
  await initSearch(store);
  const workspaces = await Promise.all(
    Array.from({ length: options.connections }, () => row.startWorkspace(options.items)),
  );
  try {
    const connections: { id: string; orgId: string }[] = [];
    for (const [index, workspace] of workspaces.entries()) {
      const org = await createOrg(store.db, {
        domain: `bench-${row.connector.shortname}-${index}-${Date.now()}.test`,
      });
      const owner = await createUser(store.db, org, { email: `admin@${org.domain}`, admin: true });
      const id = await insertConnection(store.db, {
        orgId: org.id,
        userId: owner.id,
        appName: row.connector.shortname,
        isOrg: row.isOrg,
        config: workspace.config as Record<string, unknown>,
        credentials: workspace.credentials as Record<string, unknown>,
      });
      connections.push({ id, orgId: org.id });
    }
    const ids = connections.map((connection) => connection.id);
    const worker = runWorker(store, createLogger('silent'), {
      idleMs: 10,
      lanes: { quick: 1, long: options.connections },
    });
    try {
      const requests = () => workspaces.map((workspace) => row.requests(workspace.fake));
      const seeded = requests();
      const loadBefore = os.loadavg()[0]!;
      const fullStarted = performance.now();
      for (const connection of connections) await enqueueSync(store.db, connection, 'full');
      await jobsDone(
        store,
        ids.map((id) => syncDedupeKey(id, 'full')),
      );
      const fullSeconds = (performance.now() - fullStarted) / 1000;
      const afterFull = requests();
      const [docs] = await store.db
        .select({ n: count() })
        .from(documents)
        .where(inArray(documents.connectionId, ids));
      const [chunks] = await store.db
        .select({ n: count() })
        .from(documentChunks)
        .innerJoin(documents, eq(documents.id, documentChunks.documentId))
        .where(inArray(documents.connectionId, ids));

      for (const workspace of workspaces) row.change(workspace.fake, options.changes);
      const incrementalStarted = performance.now();
      for (const connection of connections) await enqueueSync(store.db, connection, 'incremental');
      await jobsDone(
        store,
        ids.map((id) => syncDedupeKey(id, 'incremental')),
      );
      const incrementalSeconds = (performance.now() - incrementalStarted) / 1000;
      const afterIncremental = requests();
      const [changed] = await store.db
        .select({ n: count() })
        .from(documents)
        .where(
          and(
            inArray(documents.connectionId, ids),
            inArray(
              documents.id,
              store.db
                .select({ id: documentChunks.documentId })
                .from(documentChunks)
                .where(ilike(documentChunks.body, `%${CHANGE_MARK}%`)),
            ),
          ),
        );
      return {
        app: row.connector.shortname,
        options,
        fullSeconds,
        documents: docs?.n ?? 0,
        chunks: chunks?.n ?? 0,
        incrementalSeconds,
        changed: changed?.n ?? 0,
        fullRequests: Math.max(...afterFull.map((n, i) => n - seeded[i]!)),
        incrementalRequests: Math.max(...afterIncremental.map((n, i) => n - afterFull[i]!)),
        rate: connector.limits?.rate ?? null,
        loadBefore,
        loadAfter: os.loadavg()[0]!,
      };
    } finally {
      await worker.stop();
    }
  } finally {
    await Promise.all(workspaces.map((workspace) => row.close(workspace.fake)));
  }
}

const perSecond = (n: number, seconds: number) => (n / seconds).toFixed(1);

/**
 * The least time the vendor's published rate allows for `requests` (each connection being an org of its own, the
 * busiest one sets the pace), or null when the connector publishes no rate.
 */
export function vendorFloorSeconds(rate: RateLimit | null, requests: number): number | null {
  return rate ? (requests * rate.intervalMs) / rate.requests / 1000 : null;
}

const floorText = (result: ConnectorRowResult, requests: number) => {
  const floor = vendorFloorSeconds(result.rate, requests);
  return floor === null ? 'no published rate' : `vendor floor ${floor.toFixed(1)} s`;
};

/** The row's one line, as the other ingest figures print. */
export function connectorRowLine(result: ConnectorRowResult, label: string): string {
  const { options } = result;
  return (
    `ingest connector ${result.app} (${options.connections} connections at once, ${options.items} items each, ` +
    `${label}): full sync ${result.fullSeconds.toFixed(1)} s, ${perSecond(result.documents, result.fullSeconds)} ` +
    `items/s, ${perSecond(result.chunks, result.fullSeconds)} indexed chunks/s (${result.documents} items, ` +
    `${result.chunks} chunks); incremental sync of ${options.changes} changes each: ` +
    `${result.incrementalSeconds.toFixed(1)} s (${result.changed} changed items indexed); requests of the busiest ` +
    `connection: ${result.fullRequests} full (${floorText(result, result.fullRequests)}), ` +
    `${result.incrementalRequests} incremental (${floorText(result, result.incrementalRequests)}); ` +
    `${options.unpaced ? 'unpaced' : 'paced by the published rate'}; load average ` +
    `${result.loadBefore.toFixed(1)} → ${result.loadAfter.toFixed(1)}`
  );
}

/** The rows as docs/benchmarks.md's "Connector rows" table has them. */
export function connectorRowsTable(results: readonly ConnectorRowResult[]): string {
  const thousands = (n: number) => n.toLocaleString('en-US');
  const changes = results[0]?.options;
  const header = [
    'connector',
    'items per connection',
    'full sync',
    'items/s',
    'indexed chunks/s',
    `incremental, ${changes?.changes ?? 0} changes × ${changes?.connections ?? 0}`,
    'vendor floor at its published rate, full / incremental',
    'load average',
  ];
  const floors = (result: ConnectorRowResult) => {
    const full = vendorFloorSeconds(result.rate, result.fullRequests);
    const incremental = vendorFloorSeconds(result.rate, result.incrementalRequests);
    return full === null || incremental === null
      ? 'no published rate'
      : `${full.toFixed(1)} s / ${incremental.toFixed(1)} s`;
  };
  const rows = results.map((result) => [
    // Unpaced, the times are Scout's own and the floor is what the vendor would hold the sync to.
    `\`${result.app}\`${result.options.unpaced ? ' (unpaced)' : ''}`,
    thousands(result.options.items),
    `${result.fullSeconds.toFixed(1)} s`,
    perSecond(result.documents, result.fullSeconds),
    perSecond(result.chunks, result.fullSeconds),
    `${result.incrementalSeconds.toFixed(1)} s`,
    floors(result),
    `${result.loadBefore.toFixed(1)} → ${result.loadAfter.toFixed(1)}`,
  ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
