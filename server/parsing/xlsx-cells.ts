// What officeparser leaves out of an XLSX cell: its number format. Excel stores dates and times as serial numbers
// (45000 is 2023-03-15) and booleans as 0/1, so without the format a sheet of dates reads as a sheet of numbers.
// This reads the workbook's styles and each sheet's cell style indexes (a scan of the XML, no DOM) to find the
// date, time and boolean cells, and formats their values the way a reader expects.
import type { ParseContext } from './limits';
import { findEntry, readZipEntry } from './zip';

export type CellFormat = 'date' | 'time' | 'datetime' | 'boolean';

export interface XlsxCellFormats {
  /** Formats by sheet name, then by cellKey(row, column); cells not listed are shown as officeparser gives them. */
  sheets: Map<string, Map<number, CellFormat>>;
  /** Serial 0 is 1904-01-01 instead of 1899-12-31 (workbooks from old Mac Excel). */
  date1904: boolean;
}

/** Excel's last column is XFD. */
export const MAX_COLUMNS = 16_384;
const DAY_MS = 86_400_000;
/** Excel's day 0 in the 1900 system, shifted by its phantom 1900-02-29 so serials from March 1900 on are exact. */
const EPOCH_1900_MS = Date.UTC(1899, 11, 30);
const EPOCH_1904_MS = Date.UTC(1904, 0, 1);

/** Built-in number formats (ECMA-376 §18.8.30) that show a date, a time or both. */
const BUILT_IN_FORMATS: ReadonlyMap<number, CellFormat> = new Map([
  ...[14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58].map(
    (id): [number, CellFormat] => [id, 'date'],
  ),
  ...[18, 19, 20, 21, 32, 33, 45, 47].map((id): [number, CellFormat] => [id, 'time']),
  [22, 'datetime'],
]);

export function cellKey(row: number, column: number): number {
  return row * MAX_COLUMNS + column;
}

export function readXlsxCellFormats(context: ParseContext): XlsxCellFormats {
  const entries = context.zipEntries ?? [];
  const read = (path: string) => {
    const entry = findEntry(entries, path);
    return entry ? new TextDecoder().decode(readZipEntry(context.bytes, entry)) : undefined;
  };
  const workbook = read('xl/workbook.xml') ?? '';
  const styleFormats = readStyleFormats(read('xl/styles.xml') ?? '');
  const targets = new Map(
    [...(read('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\b[^>]*>/g)].map((match) => [
      attribute(match[0], 'Id'),
      attribute(match[0], 'Target'),
    ]),
  );

  const sheets = new Map<string, Map<number, CellFormat>>();
  for (const match of workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    context.signal.throwIfAborted();
    const name = attribute(match[0], 'name');
    const target = targets.get(attribute(match[0], 'r:id'));
    if (name === undefined || !target) continue;
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    const xml = read(path);
    if (xml !== undefined) sheets.set(decodeXml(name), readSheetFormats(xml, styleFormats));
  }
  return { sheets, date1904: /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(1|true)"/.test(workbook) };
}

/** The value a formatted cell shows, or `text` unchanged when it is not a number of that kind. */
export function formatCell(text: string, format: CellFormat, date1904: boolean): string {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return text;
  if (format === 'boolean') return value === 0 ? 'FALSE' : 'TRUE';
  const date = new Date((date1904 ? EPOCH_1904_MS : EPOCH_1900_MS) + Math.round(value * DAY_MS));
  if (Number.isNaN(date.getTime())) return text;
  const iso = date.toISOString();
  const day = iso.slice(0, 10);
  const time = iso.endsWith(':00.000Z') ? iso.slice(11, 16) : iso.slice(11, 19);
  return format === 'date' ? day : format === 'time' ? time : `${day} ${time}`;
}

/** The format of each cell style (cellXfs, in order): date, time or both, or nothing to change. */
function readStyleFormats(styles: string): Array<CellFormat | undefined> {
  const custom = new Map<number, CellFormat | undefined>();
  for (const match of styles.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const id = Number(attribute(match[0], 'numFmtId'));
    custom.set(id, classifyFormatCode(decodeXml(attribute(match[0], 'formatCode') ?? '')));
  }
  const cellXfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(styles)?.[1] ?? '';
  return [...cellXfs.matchAll(/<(?:\w+:)?xf\b[^>]*>/g)].map((match) => {
    const id = Number(attribute(match[0], 'numFmtId') ?? 0);
    return custom.has(id) ? custom.get(id) : BUILT_IN_FORMATS.get(id);
  });
}

/** A custom format shows a date if it has day or year parts, a time if it has hours or seconds. */
function classifyFormatCode(code: string): CellFormat | undefined {
  // only the first section (positive numbers) counts; quoted text, escapes and [colour]/[$-locale] tags do not
  const section = code.split(';')[0]!.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');
  const hasDate = /[dy]/i.test(section);
  const hasTime = /[hs]/i.test(section);
  if (hasDate && hasTime) return 'datetime';
  if (hasDate) return 'date';
  if (hasTime) return 'time';
  return undefined;
}

/** The formatted cells of one sheet: booleans (t="b"), and numbers whose style shows a date or time. */
function readSheetFormats(xml: string, styleFormats: Array<CellFormat | undefined>): Map<number, CellFormat> {
  const formats = new Map<number, CellFormat>();
  for (const match of xml.matchAll(/<(?:\w+:)?c\b[^>]*>/g)) {
    const tag = match[0];
    const reference = attribute(tag, 'r');
    if (!reference) continue;
    const type = attribute(tag, 't');
    const format =
      type === 'b'
        ? 'boolean'
        : type === undefined || type === 'n'
          ? styleFormats[Number(attribute(tag, 's') ?? 0)]
          : undefined;
    if (!format) continue;
    const position = parseReference(reference);
    if (position) formats.set(cellKey(position.row, position.column), format);
  }
  return formats;
}

/** 'B12' → row 11, column 1 (zero-based). */
function parseReference(reference: string): { row: number; column: number } | undefined {
  const match = /^([A-Z]{1,3})(\d+)$/.exec(reference);
  if (!match) return undefined;
  let column = 0;
  for (const letter of match[1]!) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, column: column - 1 };
}

const attributePatterns = new Map<string, RegExp>();

function attribute(tag: string, name: string): string | undefined {
  let pattern = attributePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`\\s${name}="([^"]*)"`);
    attributePatterns.set(name, pattern);
  }
  return pattern.exec(tag)?.[1];
}

function decodeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
