// CSV and TSV (RFC 4180 quoting in both: quoted fields may hold delimiters, quotes written twice, and line
// breaks). A CSV's delimiter is sniffed from its first line, since spreadsheet apps in much of Europe write ';'.
import { TextBudget, type FormatResult, type ParseContext } from './limits';
import { writeRows } from './rows';
import { LATIN1_WARNING, decodeText } from './text';

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;
/** Rows between checks of the time limit. */
const ROWS_PER_CHECK = 1000;

export function parseDelimited(context: ParseContext, format: 'csv' | 'tsv'): FormatResult {
  const decoded = decodeText(context.bytes, context.limits.maxChars);
  if (decoded.fellBackToLatin1) context.warnings.push(LATIN1_WARNING);
  let text = decoded.text;
  let delimiter = format === 'tsv' ? '\t' : undefined;
  // Excel honours a first line of 'sep=;' naming the delimiter
  const declared = /^sep=(.)\r?\n/.exec(text);
  if (declared) {
    delimiter = declared[1]!;
    text = text.slice(declared[0].length);
  }
  delimiter ??= sniffDelimiter(text);
  const budget = new TextBudget(context.limits.maxChars);
  const complete = writeRows(checked(readDelimitedRows(text, delimiter), context.signal), budget);
  return { text: budget.toString(), truncated: decoded.truncated || !complete };
}

/** The rows of delimited text, lazily. A quote only opens a quoted field at the start of a field. */
export function* readDelimitedRows(text: string, delimiter: string): Generator<string[]> {
  let row: string[] = [];
  let field = '';
  let i = 0;
  const length = text.length;
  while (i < length) {
    const char = text[i]!;
    if (char === '"' && field === '') {
      // a quoted field runs to the next quote that is not written twice
      let end = i + 1;
      let value = '';
      for (;;) {
        const quote = text.indexOf('"', end);
        if (quote === -1) {
          value += text.slice(end);
          end = length;
          break;
        }
        value += text.slice(end, quote);
        if (text[quote + 1] === '"') {
          value += '"';
          end = quote + 2;
        } else {
          end = quote + 1;
          break;
        }
      }
      field = value;
      i = end;
      // anything between the closing quote and the delimiter is kept, as spreadsheet apps do
      while (i < length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') field += text[i++];
      continue;
    }
    if (char === delimiter) {
      row.push(field);
      field = '';
      i++;
      continue;
    }
    if (char === '\n' || char === '\r') {
      row.push(field);
      yield row;
      row = [];
      field = '';
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += char;
    i++;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    yield row;
  }
}

function sniffDelimiter(text: string): string {
  const firstLine = firstRecord(text);
  let best: string = ',';
  let bestCount = 0;
  for (const candidate of CANDIDATE_DELIMITERS) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** The first line, with quoted parts removed so a comma inside quotes does not count. */
function firstRecord(text: string): string {
  const sample = text.slice(0, 65536);
  let out = '';
  let quoted = false;
  for (const char of sample) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted) out += char;
  }
  return out;
}

function* checked<T>(rows: Iterable<T>, signal: AbortSignal): Generator<T> {
  let count = 0;
  for (const row of rows) {
    if (++count % ROWS_PER_CHECK === 0) signal.throwIfAborted();
    yield row;
  }
}
