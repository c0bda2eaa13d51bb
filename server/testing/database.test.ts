import { readdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { orgs } from '../db/schema';
import { migrationsFolder, openStore } from '../db/store';
import { createTestDatabase, testDatabaseUrl } from './database';

const migrationCount = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).length;

describe.skipIf(!testDatabaseUrl)('test databases on the PostgreSQL server (TEST_DATABASE_URL)', () => {
  it('copies a fully migrated database, each copy its own, which opening migrates no further', async () => {
    const [first, second] = await Promise.all([
      createTestDatabase('copy_a', { migrated: true }),
      createTestDatabase('copy_b', { migrated: true }),
    ]);
    const a = await openStore({ databaseUrl: first.url });
    const b = await openStore({ databaseUrl: second.url });
    try {
      const applied = await a.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
      expect(applied.rows).toEqual([{ n: migrationCount }]);
      await a.migrate();
      expect(
        (await a.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).rows,
      ).toEqual(applied.rows);

      await a.db.insert(orgs).values({ domain: 'copy-a.test', name: 'A' });
      expect(await b.db.select().from(orgs)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await first.drop();
      await second.drop();
    }
  });

  it('still makes an empty database when asked for none migrated', async () => {
    const database = await createTestDatabase('empty');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const tables = await client.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
      );
      expect(tables.rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
