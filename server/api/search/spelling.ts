/**
 * "Did you mean": a correction built only from what the viewer may read. A query word gets a correction when no
 * readable chunk holds it; candidates are the org's lexemes within edit distance 2, but each is kept only if
 * readable chunks hold it, ranked by how many the viewer can read (never by counts that include hidden
 * documents), and spelled as it appears in one of those readable chunks. So a word that exists only in
 * documents the viewer cannot read is never suggested, nor does the choice between two words depend on them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/store';
import { lexemesOfWords } from '../../search/lexemes';

const WORD = /[\p{L}\p{N}_]+(?:['’.\-@][\p{L}\p{N}_]+)*/gu;
/** Org lexemes looked at per misspelt word (the most frequent of the right length and first letters). */
const CANDIDATE_SCAN = 5000;
/** Readable candidates of one distance whose readable counts are looked up. */
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

/**
 * How many chunks of the org hold each of `lexemes` (whoever may read them): absent means none, and no probe is
 * needed (typos, mostly); the count chooses how a probe reads (see `readableHolders`).
 */
async function orgDocFreqs(
  db: DbOrTx,
  orgId: string,
  lexemes: readonly string[],
): Promise<Map<string, number>> {
  if (lexemes.length === 0) return new Map();
  const result = await db.execute(sql`
    SELECT lexeme, doc_freq FROM search_term_stats
    WHERE org_id = ${orgId}::uuid AND doc_freq > 0 AND lexeme = ANY(${sql.param([...lexemes])}::text[])`);
  return new Map(result.rows.map((row) => [String(row.lexeme), Number(row.doc_freq)]));
}

/**
 * A lexeme held by at most this many chunks is probed from the GIN index: all its chunks are read, then filtered
 * by the ACL. Above it, a scan that stops at the first readable chunks is cheaper (a common word meets one soon).
 */
const INDEX_PROBE_MAX_DOC_FREQ = 2000;

/**
 * The bodies of readable chunks holding `lexeme`, at most `cap`, given how many chunks of the org hold it. Asked
 * in one query with the ACL and a small LIMIT, the planner walks the table hoping to meet a match early, whatever
 * the lexeme: for a rare word held only in unreadable or late chunks that walked all of it (3–7 s on 1M chunks,
 * measured). So a rare lexeme's chunks come from the index first (a MATERIALIZED CTE is planned without the LIMIT).
 */
function readableHolders(readable: SQL, lexeme: string, docFreq: number, cap: number): SQL {
  const query = sql`${tsqueryLiteral(lexeme)}::tsquery`;
  return docFreq <= INDEX_PROBE_MAX_DOC_FREQ
    ? sql`WITH holders AS MATERIALIZED (SELECT * FROM document_chunks WHERE search @@ ${query})
        SELECT c.body FROM holders AS c WHERE ${readable} LIMIT ${cap}`
    : sql`SELECT c.body FROM document_chunks c WHERE ${readable} AND c.search @@ ${query} LIMIT ${cap}`;
}

/** Readable chunks (capped) holding each lexeme of `docFreqs` (lexeme → chunks of the org holding it). */
async function readableCounts(
  db: DbOrTx,
  readable: SQL,
  docFreqs: ReadonlyMap<string, number>,
  cap = COUNT_CAP,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [lexeme, docFreq] of docFreqs) {
    const result = await db.execute(
      sql`SELECT count(*)::int AS n FROM (${readableHolders(readable, lexeme, docFreq, cap)}) AS hits`,
    );
    out.set(lexeme, Number(result.rows[0]?.n ?? 0));
  }
  return out;
}

/** The word of a readable chunk that the index stems to `lexeme`, closest to what was typed. */
async function spellingOf(
  db: DbOrTx,
  readable: SQL,
  lexeme: string,
  docFreq: number,
  typed: string,
): Promise<string> {
  const result = await db.execute(readableHolders(readable, lexeme, docFreq, 1));
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
  const present = await readableCounts(db, readable, await orgDocFreqs(db, orgId, unknown), 1);
  for (const lexeme of known) present.set(lexeme, 1);
  const replacements = new Map<string, string>();
  for (const word of words) {
    const lexemes = lexemesByWord.get(word) ?? [];
    // stop words have no lexeme; a word with any readable lexeme is fine as it is
    if (lexemes.length === 0 || lexemes.some((lexeme) => (present.get(lexeme) ?? 0) > 0)) continue;
    if (/\d/.test(word) || word.length < 3) continue;
    const probe = lexemes[0]!;
    const candidates = await db.execute(sql`
      SELECT lexeme, doc_freq FROM search_term_stats
      WHERE org_id = ${orgId}::uuid AND doc_freq > 0
        AND length(lexeme) BETWEEN ${Math.max(1, probe.length - 2)} AND ${word.length + 2}
        AND (left(lexeme, 1) = ${word.slice(0, 1)} OR substr(lexeme, 2, 2) = ${word.slice(1, 3)})
      ORDER BY doc_freq DESC
      LIMIT ${CANDIDATE_SCAN}`);
    const close = candidates.rows
      .map((row) => ({ lexeme: String(row.lexeme), docFreq: Number(row.doc_freq) }))
      .filter(({ lexeme }) => !lexemes.includes(lexeme))
      .map((candidate) => ({
        ...candidate,
        distance: Math.min(editDistance(word, candidate.lexeme), editDistance(probe, candidate.lexeme)),
      }))
      .filter((candidate) => candidate.distance <= 2)
      .sort((a, b) => a.distance - b.distance);
    // the closest readable candidate wins, the most readable among equals: a farther one is counted only when
    // no closer one is readable (counting is the costly part, ~90 ms for a common word at 1M chunks)
    for (const distance of new Set(close.map((candidate) => candidate.distance))) {
      const group = close.filter((candidate) => candidate.distance === distance);
      // which ones are counted is chosen among the readable ones: cut by the org's frequencies first, frequent
      // words of documents the viewer cannot read would push a readable one out, and the correction with it
      const present = await readableCounts(
        db,
        readable,
        new Map(group.map((candidate) => [candidate.lexeme, candidate.docFreq])),
        1,
      );
      const checked = group
        .filter((candidate) => (present.get(candidate.lexeme) ?? 0) > 0)
        .slice(0, CANDIDATES_CHECKED);
      const counts = await readableCounts(
        db,
        readable,
        new Map(checked.map((candidate) => [candidate.lexeme, candidate.docFreq])),
      );
      const best = checked
        .map((candidate) => ({ ...candidate, readable: counts.get(candidate.lexeme) ?? 0 }))
        .filter((candidate) => candidate.readable > 0)
        .sort((a, b) => b.readable - a.readable || a.lexeme.localeCompare(b.lexeme))[0];
      if (best) {
        replacements.set(word, await spellingOf(db, readable, best.lexeme, best.docFreq, word));
        break;
      }
    }
  }
  if (replacements.size === 0) return null;
  const corrected = q.replace(WORD, (match) => replacements.get(match.toLowerCase()) ?? match).trim();
  return corrected.toLowerCase() === q.trim().toLowerCase() ? null : corrected;
}
