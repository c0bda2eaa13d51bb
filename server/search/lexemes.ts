import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store';

/**
 * The English lexemes of each word as the index sees them (PostgreSQL's parser and stemmer, one round trip); a stop
 * word has none. Everything that matches words outside the database against the index's terms (highlights,
 * did-you-mean, the extractive answer) goes through this, so no second stemmer can disagree with the search.
 */
export async function lexemesOfWords(db: DbOrTx, words: readonly string[]): Promise<Map<string, string[]>> {
  if (words.length === 0) return new Map();
  const result = await db.execute(sql`
    SELECT w AS word, tsvector_to_array(to_tsvector('english', w)) AS lexemes
    FROM unnest(${sql.param([...words])}::text[]) AS w`);
  return new Map(result.rows.map((row) => [String(row.word), (row.lexemes as string[] | null) ?? []]));
}
