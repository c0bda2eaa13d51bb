/**
 * Throwaway databases on the PostgreSQL server TEST_DATABASE_URL names. Every test file that uses the server makes
 * its own, so test files can run side by side without seeing each other's rows or claiming each other's jobs.
 * Used by tests only.
 */
import pg from 'pg';
import { openStore, type Store } from '../db/store';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  /** Connection string of the new database. */
  url: string;
  /** Removes the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the TEST_DATABASE_URL server; `label` makes its name readable in `\l`. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `scout_${label}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await asAdmin(`CREATE DATABASE "${name}"`);
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * A store on a new database of the TEST_DATABASE_URL server, migrated; `url` opens more stores on it (as more
 * `scout serve` processes would), and `drop` closes this store and removes the database.
 */
export async function openServerTestStore(
  label: string,
): Promise<{ store: Store; url: string; drop: () => Promise<void> }> {
  const database = await createTestDatabase(label);
  const store = await openStore({ databaseUrl: database.url });
  return {
    store,
    url: database.url,
    async drop() {
      await store.close();
      await database.drop();
    },
  };
}
