// Every row of the connector benchmark, at a size a test can afford: two connections, each of its own fake
// workspace, fully synced at once by the real job worker into the embedded store, then a few items changed and
// synced incrementally. So a row whose fake or connector moved on fails here, not in the next benchmark run.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecretKey, setDefaultSecretKey } from '../server/db/secrets';
import { MEMORY_DATA_DIR, openStore, type Store } from '../server/db/store';
import { getConnector } from '../server/sync/registry';
import { benchConnectorRow, vendorFloorSeconds } from './connector-bench';
import { CONNECTOR_ROWS } from './connector-rows';

const ITEMS = 20;
const CONNECTIONS = 2;
const CHANGES = 5;

let store: Store;
// One store for every row (each counts only its own connections' documents): opening one is most of a small row.
beforeAll(async () => {
  setDefaultSecretKey(generateSecretKey());
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
});
afterAll(async () => {
  await store?.close();
});

it.each(CONNECTOR_ROWS.map((row) => ({ app: row.connector.shortname, row })))(
  '$app: indexes exactly the seeded items, then exactly the changed ones',
  async ({ row }) => {
    const result = await benchConnectorRow(store, row, {
      items: ITEMS,
      connections: CONNECTIONS,
      changes: CHANGES,
    });
    expect(result.documents).toBe(ITEMS * CONNECTIONS);
    expect(result.chunks).toBeGreaterThanOrEqual(result.documents);
    expect(result.changed).toBe(CHANGES * CONNECTIONS);
    expect(result.fullRequests).toBeGreaterThan(0);
    expect(result.incrementalRequests).toBeGreaterThan(0);
  },
  180_000,
);

it.each(['notion', 'gmail'])(
  '%s unpaced: the sync runs without the published rate, which the row still reports for its floor',
  async (app) => {
    const row = CONNECTOR_ROWS.find((candidate) => candidate.connector.shortname === app)!;
    const published = row.connector.limits;
    const result = await benchConnectorRow(store, row, {
      items: ITEMS,
      connections: CONNECTIONS,
      changes: CHANGES,
      unpaced: true,
    });
    expect(result.documents).toBe(ITEMS * CONNECTIONS);
    expect(result.changed).toBe(CHANGES * CONNECTIONS);
    expect(getConnector(app)?.limits).toEqual({ concurrency: published?.concurrency });
    expect(row.connector.limits).toBe(published);
    expect(result.rate).toEqual(published?.rate);
    expect(vendorFloorSeconds(result.rate, result.fullRequests)).toBeGreaterThan(0);
  },
  180_000,
);

it('puts the vendor floor at the requests over the published rate, and none without a rate', () => {
  expect(vendorFloorSeconds({ requests: 3, intervalMs: 1000 }, 90)).toBe(30);
  expect(vendorFloorSeconds({ requests: 50, intervalMs: 60_000 }, 100)).toBe(120);
  expect(vendorFloorSeconds(null, 90)).toBeNull();
});
