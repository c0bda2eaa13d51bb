import { appendFileSync, cpSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { memoryTemplateFile, migrationsDigest } from './memory-template';
import { MEMORY_DATA_DIR, memoryTemplate, migrationsFolder, openStore } from './store';

const scratch = mkdtempSync(path.join(tmpdir(), 'scout-template-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('names a new template when a migration or a setting changes, so a stale one is never loaded', () => {
  const folder = path.join(scratch, 'migrations');
  cpSync(migrationsFolder, folder, { recursive: true });
  const conf = ["timezone = 'UTC'"];
  const before = memoryTemplateFile(folder, conf);
  expect(memoryTemplateFile(folder, conf)).toBe(before);
  expect(memoryTemplateFile(folder, ["timezone = 'GMT'"])).not.toBe(before);
  appendFileSync(path.join(folder, '0000_init.sql'), '\n-- changed\n');
  expect(memoryTemplateFile(folder, conf)).not.toBe(before);
});

it('names a new server template database when a migration changes, and only then', () => {
  const folder = path.join(scratch, 'server-migrations');
  cpSync(migrationsFolder, folder, { recursive: true });
  const before = migrationsDigest(folder);
  expect(migrationsDigest(folder)).toBe(before);
  expect(before).toMatch(/^[0-9a-f]{16}$/);
  appendFileSync(path.join(folder, '0000_init.sql'), '\n-- changed\n');
  expect(migrationsDigest(folder)).not.toBe(before);
});

it('opens a working store over a template cut short, and writes a whole one in its place', async () => {
  const warmed = await openStore({ dataDir: MEMORY_DATA_DIR });
  await warmed.close();
  const template = memoryTemplate();
  // replaced whole, as the store writes it, since other test files may be opening memory stores meanwhile
  writeFileSync(`${template}.cut`, 'not a tar file');
  renameSync(`${template}.cut`, template);

  const store = await openStore({ dataDir: MEMORY_DATA_DIR });
  try {
    const tables = await store.db.execute(
      sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'documents'`,
    );
    expect(tables.rows).toEqual([{ n: 1 }]);
  } finally {
    await store.close();
  }
  expect(statSync(template).size).toBeGreaterThan(1_000_000);
}, 120_000);
