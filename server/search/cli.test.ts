import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../db/store';
import { createOrg } from '../testing/fixtures';
import { registerSearchCommands } from './cli';
import { upsertDocuments } from './indexer';

let dataDir: string;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'scout-reindex-'));
  const store = await openStore({ dataDir });
  try {
    const org = await createOrg(store.db, { domain: 'reindex.example.com' });
    await upsertDocuments(store.db, org.id, [
      { source: 'notion', externalId: 'a', title: 'Alpha', body: 'Budget review in March.', acl: ['org'] },
      { source: 'notion', externalId: 'b', title: 'Beta', body: 'Hiring plan for the autumn.', acl: ['org'] },
    ]);
    // drifted statistics, for the command to repair
    await store.db.execute(sql`UPDATE search_stats SET chunk_count = 99, total_length = 1`);
    await store.db.execute(sql`DELETE FROM search_term_stats`);
  } finally {
    await store.close();
  }
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(dataDir, { recursive: true, force: true });
});

async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerSearchCommands(program);
  const output: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    output.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    write.mockRestore();
  }
  return output.join('');
}

describe('scout reindex', () => {
  it('rebuilds chunks and statistics of one organisation', async () => {
    expect(await run(['reindex', '--org', 'Reindex.Example.com'])).toMatch(
      /^reindex\.example\.com: 2 documents, 2 chunks reindexed in [\d.]+ s \(pg_textsearch\)\n$/,
    );
    const store = await openStore({ dataDir });
    try {
      const stats = await store.db.execute(sql`SELECT chunk_count::int AS n FROM search_stats`);
      expect(stats.rows).toEqual([{ n: 2 }]);
      const terms = await store.db.execute(sql`SELECT lexeme FROM search_term_stats ORDER BY lexeme`);
      expect(terms.rows.map((row) => row.lexeme)).toContain('budget');
    } finally {
      await store.close();
    }
  });

  it('refuses an unknown organisation', async () => {
    await expect(run(['reindex', '--org', 'nobody.example.com'])).rejects.toThrow(/no organisation/);
  });
});
