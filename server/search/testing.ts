/**
 * Test support for the search suites: seeded randomness and the lexemes the store gives words (so in-memory
 * reference implementations agree with the stemmer). Used by tests only.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store';

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
