// The connector benchmark's rows (issue 12): the SDK's example connector, then every vendor connector against its
// fake. `npm run bench:ingest -- --connectors-only [--connector-items N] [--connector APP]` runs them.
import { generateSecretKey, setDefaultSecretKey } from '../server/db/secrets';
import { MEMORY_DATA_DIR, openStore } from '../server/db/store';
import {
  benchConnectorRow,
  connectorRowLine,
  connectorRowsTable,
  type AnyConnectorBenchRow,
  type ConnectorRowResult,
} from './connector-bench';
import { gcalRow, gdriveRow, gmailRow, gworkspaceDirectoryRow } from './connectors/google';
import { msteamsRow, onedriveRow, outlookRow, sharepointRow } from './connectors/microsoft';
import { notesRow } from './connectors/notes';
import { notionRow } from './connectors/notion';
import { slackRow } from './connectors/slack';

export const CONNECTOR_ROWS: readonly AnyConnectorBenchRow[] = [
  notesRow,
  slackRow,
  notionRow,
  gdriveRow,
  gworkspaceDirectoryRow,
  gmailRow,
  gcalRow,
  outlookRow,
  msteamsRow,
  sharepointRow,
  onedriveRow,
];

export const CONNECTIONS_AT_ONCE = 4;
export const INCREMENTAL_CHANGES = 100;

/**
 * Runs the rows (all, or those of `apps`), each on an embedded store of its own so no row pays for another's
 * index, printing each row's line as it ends and then the table for docs/benchmarks.md. A row that fails is
 * reported and the others still run.
 */
export async function benchConnectorRows(options: {
  items: number;
  apps?: readonly string[];
  unpaced?: boolean;
}): Promise<void> {
  // The connections' credentials are sealed with the process's key, as the server's are with its data dir's.
  setDefaultSecretKey(generateSecretKey());
  const rows = CONNECTOR_ROWS.filter(
    (row) => !options.apps || options.apps.includes(row.connector.shortname),
  );
  const results: ConnectorRowResult[] = [];
  for (const row of rows) {
    const store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
    try {
      const result = await benchConnectorRow(store, row, {
        items: options.items,
        connections: CONNECTIONS_AT_ONCE,
        changes: INCREMENTAL_CHANGES,
        unpaced: options.unpaced ?? false,
      });
      console.log(connectorRowLine(result, 'embedded PGlite (memory)'));
      results.push(result);
    } catch (error) {
      console.error(`ingest connector ${row.connector.shortname} failed:`, error);
      process.exitCode = 1;
    } finally {
      await store.close();
    }
  }
  console.log(`\n${connectorRowsTable(results)}`);
}
