/**
 * Test support for the search suites: seeded randomness, a throwaway PostgreSQL database when TEST_DATABASE_URL
 * is set, and the lexemes the store gives words (so in-memory reference implementations agree with the
 * stemmer). Used by tests only.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openStore, type DbOrTx, type Store } from '../db/store';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function sample<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0)
    out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}

/** The english lexemes of each word, from the store's own parser and stemmer. */
export async function lexemesOf(db: DbOrTx, words: readonly string[]): Promise<Map<string, string[]>> {
  const result = await db.execute(sql`
    SELECT w AS word, tsvector_to_array(to_tsvector('english', w)) AS lexemes
    FROM unnest(${sql.param([...words])}::text[]) AS w`);
  return new Map(result.rows.map((row) => [String(row.word), (row.lexemes as string[] | null) ?? []]));
}

/**
 * A fresh database on the TEST_DATABASE_URL server, migrated; `url` opens more stores on it (as more `scout serve`
 * processes would), and `drop` closes this store and removes the database.
 */
export async function openServerTestStore(
  label: string,
): Promise<{ store: Store; url: string; drop: () => Promise<void> }> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `scout_${label}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString() });
  return {
    store,
    url: url.toString(),
    async drop() {
      await store.close();
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
