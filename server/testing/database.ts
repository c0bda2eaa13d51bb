/**
 * Throwaway databases on the PostgreSQL server TEST_DATABASE_URL names. Every test file that uses the server makes
 * its own, so test files can run side by side without seeing each other's rows or claiming each other's jobs.
 * Used by tests only.
 */
import pg from 'pg';
import { migrationsDigest } from '../db/memory-template';
import { migrationsFolder, openStore, type Store } from '../db/store';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  /** Connection string of the new database. */
  url: string;
  /** Removes the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

// Arbitrary constant: serialises the building of the migrated template among test files running side by side.
const TEMPLATE_LOCK_KEY = 7_290_431_119;

async function asAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(testDatabaseUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The server's database holding every migration, built once per set of migrations and then only copied: running
 * the migrations took ~2 s a database, copying a database takes a fraction of that. Named by the migrations'
 * digest, so a changed migration builds a new one; built under another name and renamed once whole, so a test
 * file killed mid-build never leaves a half-migrated template behind.
 */
async function migratedTemplate(): Promise<string> {
  const name = `scout_template_${migrationsDigest(migrationsFolder)}`;
  await asAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const store = await openStore({ databaseUrl: databaseUrl(building) });
      await store.close();
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
  return name;
}

/**
 * A new database on the TEST_DATABASE_URL server; `label` makes its name readable in `\l`. Empty, or with
 * `migrated` a copy of the migrated template (what `openStore` would leave in an empty one, without the wait).
 */
export async function createTestDatabase(
  label: string,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `scout_${label}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const template = options.migrated ? ` TEMPLATE "${await migratedTemplate()}"` : '';
  await asAdmin((admin) => admin.query(`CREATE DATABASE "${name}"${template}`));
  return {
    url: databaseUrl(name),
    drop: () =>
      asAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * A store on a new, migrated database of the TEST_DATABASE_URL server; `url` opens more stores on it (as more
 * `scout serve` processes would), and `drop` closes this store and removes the database.
 */
export async function openServerTestStore(
  label: string,
): Promise<{ store: Store; url: string; drop: () => Promise<void> }> {
  const database = await createTestDatabase(label, { migrated: true });
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
