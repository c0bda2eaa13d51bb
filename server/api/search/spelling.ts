/**
 * "Did you mean": a correction built only from what the viewer may read. A query word gets a correction when no
 * readable chunk holds it; candidates are the org's lexemes within edit distance 2, but each is kept only if
 * readable chunks hold it, ranked by how many the viewer can read (never by counts that include hidden
 * documents), and spelled as it appears in one of those readable chunks. So a word that exists only in
 * documents the viewer cannot read is never suggested, nor does the choice between two words depend on them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/store';

const WORD = /[\p{L}\p{N}_]+(?:['’.\-@][\p{L}\p{N}_]+)*/gu;
/** Org lexemes looked at per misspelt word (the most frequent of the right length and first letters). */
const CANDIDATE_SCAN = 5000;
/** Candidates whose readable counts are looked up, the closest first. */
const CANDIDATES_CHECKED = 12;
/** Readable chunks counted per candidate: enough to rank, cheap to count. */
const COUNT_CAP = 200;
const MAX_WORDS = 8;

export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      rowMin = Math.min(rowMin, current[j]!);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

const tsqueryLiteral = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

async function lexemesOfWords(db: DbOrTx, words: readonly string[]): Promise<Map<string, string[]>> {
  if (words.length === 0) return new Map();
  const result = await db.execute(sql`
    SELECT w AS word, tsvector_to_array(to_tsvector('english', w)) AS lexemes
    FROM unnest(${sql.param([...words])}::text[]) AS w`);
  return new Map(result.rows.map((row) => [String(row.word), (row.lexemes as string[] | null) ?? []]));
}

/** Those of `lexemes` that some chunk of the org holds (whoever may read it: only used to skip probes). */
async function lexemesInOrg(db: DbOrTx, orgId: string, lexemes: readonly string[]): Promise<Set<string>> {
  if (lexemes.length === 0) return new Set();
  const result = await db.execute(sql`
    SELECT lexeme FROM search_term_stats
    WHERE org_id = ${orgId}::uuid AND doc_freq > 0 AND lexeme = ANY(${sql.param([...lexemes])}::text[])`);
  return new Set(result.rows.map((row) => String(row.lexeme)));
}

/** Readable chunks (capped) holding each lexeme. */
async function readableCounts(
  db: DbOrTx,
  readable: SQL,
  lexemes: readonly string[],
  cap = COUNT_CAP,
): Promise<Map<string, number>> {
  if (lexemes.length === 0) return new Map();
  const result = await db.execute(sql`
    SELECT l AS lexeme, (
      SELECT count(*)::int FROM (
        SELECT 1 FROM document_chunks c WHERE ${readable} AND c.search @@ (l::tsquery) LIMIT ${cap}
      ) AS hits
    ) AS n
    FROM unnest(${sql.param(lexemes.map(tsqueryLiteral))}::text[]) AS l`);
  const out = new Map<string, number>();
  result.rows.forEach((row, i) => out.set(lexemes[i]!, Number(row.n)));
  return out;
}

/** The word of a readable chunk that the index stems to `lexeme`, closest to what was typed. */
async function spellingOf(db: DbOrTx, readable: SQL, lexeme: string, typed: string): Promise<string> {
  const result = await db.execute(sql`
    SELECT c.body FROM document_chunks c
    WHERE ${readable} AND c.search @@ (${tsqueryLiteral(lexeme)}::tsquery) LIMIT 1`);
  const body = String(result.rows[0]?.body ?? '');
  const head = lexeme.slice(0, 2);
  const words = [...new Set([...body.matchAll(WORD)].map((m) => m[0].toLowerCase()))].filter((word) =>
    word.startsWith(head),
  );
  const lexemes = await lexemesOfWords(db, words);
  const matching = words.filter((word) => lexemes.get(word)?.includes(lexeme));
  matching.sort((a, b) => editDistance(a, typed, 99) - editDistance(b, typed, 99) || a.localeCompare(b));
  return matching[0] ?? lexeme;
}

/**
 * The query with its unreadable words replaced by the closest readable ones, or null when every word has
 * readable hits or nothing close enough is readable. `readable` is the viewer's condition on `c`
 * (document_chunks): org and ACL. `known` are lexemes already seen in chunks the viewer may read (the search's
 * own hits): they need no probe, which is what keeps this cheap for queries with hits.
 */
export async function spellCorrect(
  db: DbOrTx,
  orgId: string,
  readable: SQL,
  q: string,
  known: ReadonlySet<string> = new Set(),
): Promise<string | null> {
  const words = [...new Set([...q.matchAll(WORD)].map((m) => m[0].toLowerCase()))].slice(0, MAX_WORDS);
  const lexemesByWord = await lexemesOfWords(db, words);
  const allLexemes = [...new Set([...lexemesByWord.values()].flat())];
  // a lexeme no chunk of the org holds needs no probe (typos, mostly): the probe is the costly part
  const unknown = allLexemes.filter((lexeme) => !known.has(lexeme));
  const inOrg = await lexemesInOrg(db, orgId, unknown);
  const present = await readableCounts(
    db,
    readable,
    unknown.filter((lexeme) => inOrg.has(lexeme)),
    1,
  );
  for (const lexeme of known) present.set(lexeme, 1);
  const replacements = new Map<string, string>();
  for (const word of words) {
    const lexemes = lexemesByWord.get(word) ?? [];
    // stop words have no lexeme; a word with any readable lexeme is fine as it is
    if (lexemes.length === 0 || lexemes.some((lexeme) => (present.get(lexeme) ?? 0) > 0)) continue;
    if (/\d/.test(word) || word.length < 3) continue;
    const probe = lexemes[0]!;
    const candidates = await db.execute(sql`
      SELECT lexeme FROM search_term_stats
      WHERE org_id = ${orgId}::uuid AND doc_freq > 0
        AND length(lexeme) BETWEEN ${Math.max(1, probe.length - 2)} AND ${word.length + 2}
        AND (left(lexeme, 1) = ${word.slice(0, 1)} OR substr(lexeme, 2, 2) = ${word.slice(1, 3)})
      ORDER BY doc_freq DESC
      LIMIT ${CANDIDATE_SCAN}`);
    const close = candidates.rows
      .map((row) => String(row.lexeme))
      .filter((lexeme) => !lexemes.includes(lexeme))
      .map((lexeme) => ({
        lexeme,
        distance: Math.min(editDistance(word, lexeme), editDistance(probe, lexeme)),
      }))
      .filter((candidate) => candidate.distance <= 2)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, CANDIDATES_CHECKED);
    const counts = await readableCounts(
      db,
      readable,
      close.map((candidate) => candidate.lexeme),
    );
    const best = close
      .map((candidate) => ({ ...candidate, readable: counts.get(candidate.lexeme) ?? 0 }))
      .filter((candidate) => candidate.readable > 0)
      .sort(
        (a, b) => a.distance - b.distance || b.readable - a.readable || a.lexeme.localeCompare(b.lexeme),
      )[0];
    if (best) replacements.set(word, await spellingOf(db, readable, best.lexeme, word));
  }
  if (replacements.size === 0) return null;
  const corrected = q.replace(WORD, (match) => replacements.get(match.toLowerCase()) ?? match).trim();
  return corrected.toLowerCase() === q.trim().toLowerCase() ? null : corrected;
}
