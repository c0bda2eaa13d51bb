// Rows of a sheet (CSV, TSV, XLSX, ODS, Numbers) as searchable text. When the first row reads as a header, each
// later row becomes a block of 'Column: value' lines, so a row is found by its column names ('Owner: Dana');
// otherwise rows are tab-separated lines. Blocks are separated by blank lines, which the chunker keeps together.
import type { TextBudget } from './limits';

const MAX_HEADER_CELL_CHARS = 100;

/** Writes `rows` into `budget`; stops (and returns false) once the budget is full. */
export function writeRows(rows: Iterable<readonly string[]>, budget: TextBudget): boolean {
  let header: string[] | undefined;
  let first = true;
  for (const raw of rows) {
    const row = raw.map(cleanCell);
    if (!row.some(Boolean)) continue;
    if (first) {
      first = false;
      if (isHeaderRow(row)) {
        header = row;
        if (!budget.push(`${row.join('\t')}\n\n`)) return false;
        continue;
      }
    }
    const block = header ? labelledRow(header, row) : `${row.join('\t').trimEnd()}\n`;
    if (!budget.push(header ? `${block}\n\n` : block)) return false;
  }
  return true;
}

function labelledRow(header: readonly string[], row: readonly string[]): string {
  const lines: string[] = [];
  row.forEach((value, column) => {
    if (value) lines.push(`${header[column] || `Column ${column + 1}`}: ${value}`);
  });
  return lines.join('\n');
}

/** A header row names its columns: every cell filled, short, not a number or a date, and no name twice. */
export function isHeaderRow(row: readonly string[]): boolean {
  const cells = trimTrailingEmpty(row);
  if (cells.length === 0) return false;
  const seen = new Set<string>();
  for (const cell of cells) {
    if (!cell || cell.length > MAX_HEADER_CELL_CHARS || looksLikeValue(cell)) return false;
    const key = cell.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function looksLikeValue(cell: string): boolean {
  return /^[-+]?[$€£¥]?\s?[\d.,]+%?$/.test(cell) || /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}/.test(cell);
}

function trimTrailingEmpty(row: readonly string[]): readonly string[] {
  let end = row.length;
  while (end > 0 && !row[end - 1]) end--;
  return row.slice(0, end);
}

/** One line per cell: line breaks and tabs inside a value become spaces. */
function cleanCell(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
