// Every row of the connector benchmark, at a size a test can afford: two connections, each of its own fake
// workspace, fully synced at once by the real job worker into the embedded store, then a few items changed and
// synced incrementally. So a row whose fake or connector moved on fails here, not in the next benchmark run.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecretKey, setDefaultSecretKey } from '../server/db/secrets';
import { MEMORY_DATA_DIR, openStore, type Store } from '../server/db/store';
import { benchConnectorRow } from './connector-bench';
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
  },
  180_000,
);
