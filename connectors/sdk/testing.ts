// Test helpers for connectors: a clock that fast-forwards, a logger that records, and the conformance kit every
// connector's own test runs against its fake. The kit checks the properties the sync engine relies on, which a
// connector's happy-path test would not: every cursor is a checkpoint, pruning never drops a live document,
// invalid credentials are reported as such, and a transient failure does not end a sync.
import assert from 'node:assert/strict';
import { getApp } from '../../common/catalogue';
import type { Clock } from './clock';
import { createConnectorContext } from './context';
import { InvalidCredentialsError } from './errors';
import type { FakeServer } from './fake-server';
import type { ConnectorLogger } from './logger';
import {
  connectionIdentitySchema,
  groupMembershipSchema,
  syncBatchSchema,
  type Connector,
  type ConnectorContext,
  type Cursor,
  type SyncBatch,
} from './types';

export interface FakeClock extends Clock {
  /** Every sleep asked for, in order. */
  readonly sleeps: readonly number[];
  advance(ms: number): void;
}

/** Sleeping moves the clock on at once, so back-off and Retry-After waits cost no real time. */
export function fakeClock(startMs = Date.parse('2025-06-01T00:00:00Z')): FakeClock {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += Math.max(0, ms);
      // Yield as a real timer would, so other requests get their turn.
      await Promise.resolve();
    },
  };
}

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message?: string;
}

export interface RecordingLogger extends ConnectorLogger {
  readonly entries: readonly LogEntry[];
  /** Everything logged, serialised as a log sink would write it. */
  text(): string;
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (fields: Record<string, unknown>, message?: string): void => {
      entries.push({ level, fields, message });
    };
  return {
    entries,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => entries.map((entry) => JSON.stringify(entry)).join('\n'),
  };
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

export interface SourceChanges {
  /** Ids created or modified; incrementalSync must deliver each of them and nothing else. */
  readonly changed: readonly string[];
  /** Ids removed; incrementalSync reports them, or listIds stops listing them. */
  readonly deleted: readonly string[];
}

export interface ConformanceOptions {
  readonly fakeServer: FakeServer;
  /** Credentials the fake accepts, as the install payload or the store would hold them. */
  readonly credentials: unknown;
  /** Credentials the fake rejects. Default: every string value of `credentials` with '-invalid' appended. */
  readonly invalidCredentials?: unknown;
  /** The connection settings; by convention `{ baseUrl: fakeServer.url, … }`. */
  readonly config: unknown;
  /** Changes the fake's data after the full sync and says what it changed. */
  readonly changeSource: () => SourceChanges | Promise<SourceChanges>;
}

export interface ConformanceReport {
  readonly fullSync: { readonly batches: number; readonly documents: number };
  /** Whether the full sync had a middle cursor to resume from (it needs two batches or more). */
  readonly resumedMidSync: boolean;
  readonly incremental: { readonly documents: number; readonly deleted: number };
  readonly listedIds: number;
  readonly groups: number | null;
}

function spoil(credentials: unknown): unknown {
  if (typeof credentials !== 'object' || credentials === null) return credentials;
  return Object.fromEntries(
    Object.entries(credentials).map(([key, value]) => [
      key,
      typeof value === 'string' ? `${value}-invalid` : value,
    ]),
  );
}

function secretsOf(credentials: unknown): string[] {
  if (typeof credentials !== 'object' || credentials === null) return [];
  return Object.values(credentials).filter(
    (value): value is string => typeof value === 'string' && value.length >= 6,
  );
}

function idsOf(batches: readonly SyncBatch[]): string[] {
  return batches.flatMap((batch) => batch.documents.map((document) => document.externalId));
}

function checkBatches(shortname: string, batches: readonly SyncBatch[], label: string): void {
  assert.ok(batches.length > 0, `${label}: yields at least one batch, so the engine gets a cursor`);
  const objectTypes: readonly string[] = getApp(shortname)?.objectTypes ?? [];
  for (const [index, batch] of batches.entries()) {
    const parsed = syncBatchSchema.safeParse(batch);
    assert.ok(
      parsed.success,
      `${label}: batch ${index} is a valid SyncBatch: ${parsed.error?.message ?? ''}`,
    );
    assert.deepEqual(
      JSON.parse(JSON.stringify(batch.cursor)),
      batch.cursor,
      `${label}: batch ${index}'s cursor survives a JSON round trip`,
    );
    for (const document of batch.documents) {
      assert.ok(
        objectTypes.includes(document.objectType),
        `${label}: ${document.externalId} has object type ${document.objectType}, one the catalogue lists for ${shortname}`,
      );
    }
  }
}

/**
 * Runs a connector against its fake and asserts the contract. Call it from one test of the connector's own
 * suite; it throws an AssertionError naming the property that failed.
 */
export async function runConnectorConformance<Credentials, Config>(
  connector: Connector<Credentials, Config>,
  options: ConformanceOptions,
): Promise<ConformanceReport> {
  const { fakeServer } = options;
  const logger = recordingLogger();
  // No jitter: back-off delays are 0, so the injected failures cost no time.
  const context = (
    input: { credentials?: unknown; signal?: AbortSignal } = {},
  ): ConnectorContext<Credentials, Config> =>
    createConnectorContext(connector, {
      credentials: input.credentials ?? options.credentials,
      config: options.config,
      logger,
      signal: input.signal,
      random: () => 0,
    });
  const { shortname } = connector;

  const identity = await connector.validate(context());
  assert.ok(connectionIdentitySchema.safeParse(identity).success, 'validate: returns a ConnectionIdentity');

  const invalid = options.invalidCredentials ?? spoil(options.credentials);
  await assert.rejects(
    async () => connector.validate(context({ credentials: invalid })),
    (error: unknown) =>
      error instanceof InvalidCredentialsError && error.credentialName === connector.credentialName,
    'validate: rejected credentials raise InvalidCredentialsError naming the connector’s credential',
  );

  // A sync must ride out what every vendor does now and then.
  fakeServer.failNext(1, { kind: 'status', status: 500 });
  fakeServer.failNext(1, { kind: 'rateLimit', retryAfter: 0 });
  const full = await collect(connector.fullSync(context()));
  checkBatches(shortname, full, 'fullSync');
  const fullIds = idsOf(full);
  assert.ok(fullIds.length > 0, 'fullSync: yields documents from the fake');
  assert.equal(new Set(fullIds).size, fullIds.length, 'fullSync: yields each document once');

  const resumedMidSync = full.length >= 2;
  if (resumedMidSync) {
    const first = full[0] as SyncBatch;
    const resumed = await collect(connector.incrementalSync(context(), first.cursor));
    checkBatches(shortname, resumed, 'incrementalSync from the first cursor');
    const covered = new Set([...idsOf([first]), ...idsOf(resumed)]);
    const missing = fullIds.filter((id) => !covered.has(id));
    assert.deepEqual(
      missing,
      [],
      'every cursor is a checkpoint: resuming from the first one delivers the rest',
    );
  }

  const listed = new Set((await collect(connector.listIds(context()))).flat());
  const unlisted = fullIds.filter((id) => !listed.has(id));
  assert.deepEqual(unlisted, [], 'listIds: lists everything fullSync yielded, or pruning would delete it');

  const changes = await options.changeSource();
  const lastCursor: Cursor = (full.at(-1) as SyncBatch).cursor;
  const incremental = await collect(connector.incrementalSync(context(), lastCursor));
  checkBatches(shortname, incremental, 'incrementalSync');
  const delivered = idsOf(incremental);
  const reportedDeleted = new Set(incremental.flatMap((batch) => batch.deletedExternalIds ?? []));
  assert.deepEqual(
    [...new Set(delivered)].sort(),
    [...changes.changed].sort(),
    'incrementalSync: delivers exactly the changed documents',
  );
  const listedAfter = new Set((await collect(connector.listIds(context()))).flat());
  for (const id of changes.deleted) {
    assert.ok(
      reportedDeleted.has(id) || !listedAfter.has(id),
      `deleted ${id}: reported by incrementalSync or no longer listed by listIds`,
    );
  }

  const caughtUp = await collect(
    connector.incrementalSync(context(), (incremental.at(-1) as SyncBatch).cursor),
  );
  checkBatches(shortname, caughtUp, 'incrementalSync without changes');
  assert.deepEqual(idsOf(caughtUp), [], 'incrementalSync: with nothing changed, delivers nothing');

  let groups: number | null = null;
  if (connector.permissions) {
    const memberships = (await collect(connector.permissions(context()))).flat();
    for (const membership of memberships) {
      const parsed = groupMembershipSchema.safeParse(membership);
      assert.ok(parsed.success, `permissions: ${JSON.stringify(membership)} is a valid GroupMembership`);
    }
    groups = memberships.length;
  }

  const aborted = AbortSignal.abort();
  await assert.rejects(
    async () => collect(connector.fullSync(context({ signal: aborted }))),
    'fullSync: an aborted signal stops it',
  );

  assert.deepEqual(fakeServer.handlerErrors, [], 'the fake answered every request without a handler error');
  const concurrency = connector.limits?.concurrency;
  if (concurrency !== undefined) {
    assert.ok(fakeServer.maxInFlight <= concurrency, `never more than ${concurrency} requests in flight`);
  }
  const logged = logger.text();
  for (const secret of secretsOf(options.credentials)) {
    assert.ok(!logged.includes(secret), 'no credential appears in the log');
  }

  return {
    fullSync: { batches: full.length, documents: fullIds.length },
    resumedMidSync,
    incremental: { documents: delivered.length, deleted: changes.deleted.length },
    listedIds: listed.size,
    groups,
  };
}
