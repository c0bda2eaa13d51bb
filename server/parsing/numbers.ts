// Apple Numbers (.numbers, Numbers 10 and later): a ZIP of .iwa object archives (see iwa.ts). The document
// (object 1) lists its sheets; a sheet's drawables include its tables (TST.TableInfoArchive); a table model keeps
// its cells in 256-row tiles of packed cell records, whose strings live in a shared string list. Cells are read
// as the values Numbers last calculated (formulas included), and each table's rows are written like any other
// sheet: '## Sheet: Name', '### Table name', then header-aware rows.
//
// Field numbers follow the message definitions in Apple's TSTArchives/TNArchives protos (as published with
// numbers-parser); files saved before Numbers 10 store cells differently and are reported, not guessed at.
import { CorruptFileError } from './errors';
import {
  bytes,
  decodeMessage,
  message,
  messages,
  number,
  readIwaObjects,
  reference,
  references,
  string,
  type IwaObject,
  type ProtoMessage,
} from './iwa';
import { TextBudget, type FormatResult, type ParseContext } from './limits';
import { writeRows } from './rows';
import { readZipEntry } from './zip';

const TYPE_SHEET = 2;
const TYPE_TABLE_INFO = 6000;
const TYPE_TABLE_MODEL = 6001;
const DOCUMENT_ID = 1;
const DEFAULT_TILE_ROWS = 256;
/** Numbers' own maximum columns per table. */
const MAX_COLUMNS = 1000;
/** Seconds between the Unix epoch and Numbers' (2001-01-01). */
const APPLE_EPOCH_SECONDS = 978_307_200;

export const PRE_BNC_WARNING =
  'Tables saved by Numbers 9 or earlier were skipped; open and save the file again.';

export function parseNumbers(context: ParseContext): FormatResult {
  const objects = loadObjects(context);
  const document = objects.get(DOCUMENT_ID);
  if (!document) throw new CorruptFileError('numbers: no document object');
  const budget = new TextBudget(context.limits.maxChars);
  let skippedOldTables = false;

  for (const sheetId of references(decodeMessage(document.data), 1)) {
    const sheet = objects.get(sheetId);
    if (sheet?.type !== TYPE_SHEET || budget.full) continue;
    const sheetArchive = decodeMessage(sheet.data);
    budget.push(`## Sheet: ${oneLine(string(sheetArchive, 1) ?? '')}\n\n`);
    for (const drawableId of references(sheetArchive, 2)) {
      context.signal.throwIfAborted();
      const drawable = objects.get(drawableId);
      if (drawable?.type !== TYPE_TABLE_INFO || budget.full) continue;
      const modelId = reference(decodeMessage(drawable.data), 2);
      const model = modelId === undefined ? undefined : objects.get(modelId);
      if (model?.type !== TYPE_TABLE_MODEL) continue;
      const table = readTable(decodeMessage(model.data), objects);
      skippedOldTables ||= table.preBnc;
      if (table.preBnc) continue;
      if (table.name) budget.push(`### ${oneLine(table.name)}\n\n`);
      writeRows(table.rows, budget);
      budget.push('\n');
    }
  }
  if (skippedOldTables) context.warnings.push(PRE_BNC_WARNING);
  return { text: budget.toString(), truncated: budget.full };
}

function loadObjects(context: ParseContext): Map<number, IwaObject> {
  const objects = new Map<number, IwaObject>();
  let expanded = 0;
  for (const entry of context.zipEntries ?? []) {
    if (!entry.name.startsWith('Index/') || !entry.name.endsWith('.iwa')) continue;
    context.signal.throwIfAborted();
    const budget = context.limits.maxUncompressedBytes - expanded;
    expanded += readIwaObjects(readZipEntry(context.bytes, entry), objects, budget);
  }
  return objects;
}

interface Table {
  name: string;
  rows: string[][];
  /** Stored the pre-Numbers-10 way, which this reader does not decode. */
  preBnc: boolean;
}

function readTable(model: ProtoMessage, objects: Map<number, IwaObject>): Table {
  const name = string(model, 8) ?? '';
  const columnCount = Math.min(number(model, 7) ?? 0, MAX_COLUMNS);
  const rowCount = number(model, 6) ?? 0;
  const store = message(model, 4);
  if (!store) return { name, rows: [], preBnc: false };
  const strings = readDataList(objects, reference(store, 4));
  const richTexts = readDataList(objects, reference(store, 17));
  const tileStorage = message(store, 3);
  const tileRows = (tileStorage && number(tileStorage, 2)) || DEFAULT_TILE_ROWS;
  const grid = new Map<number, string[]>();
  let preBnc = false;

  for (const tileEntry of tileStorage ? messages(tileStorage, 1) : []) {
    const tileId = number(tileEntry, 1) ?? 0;
    const tileObject = objects.get(reference(tileEntry, 2) ?? -1);
    if (!tileObject) continue;
    const tile = decodeMessage(tileObject.data);
    if (number(tile, 7) !== 1) {
      preBnc = true;
      continue;
    }
    for (const rowInfo of messages(tile, 5)) {
      const row = tileId * tileRows + (number(rowInfo, 1) ?? 0);
      if (row >= rowCount) continue;
      const cells = readRow(rowInfo, columnCount, (record) => cellText(record, strings, richTexts, objects));
      if (cells.some(Boolean)) grid.set(row, cells);
    }
  }
  const rows = [...grid.entries()].sort(([a], [b]) => a - b).map(([, cells]) => cells);
  return { name, rows, preBnc };
}

/** A TableDataList's entries by key: the string, or the reference (rich text payloads), of each. */
function readDataList(objects: Map<number, IwaObject>, id: number | undefined): Map<number, ProtoMessage> {
  const entries = new Map<number, ProtoMessage>();
  const list = id === undefined ? undefined : objects.get(id);
  if (!list) return entries;
  const archive = decodeMessage(list.data);
  const add = (entry: ProtoMessage) => {
    const key = number(entry, 1);
    if (key !== undefined) entries.set(key, entry);
  };
  messages(archive, 3).forEach(add);
  // large lists keep their entries in segments (TST.TableDataListSegment, entries in field 3 too)
  for (const segmentId of references(archive, 4)) {
    const segment = objects.get(segmentId);
    if (segment) messages(decodeMessage(segment.data), 3).forEach(add);
  }
  return entries;
}

/** One row's cell records: `cell_offsets` holds a signed 16-bit offset per column, -1 for an empty cell. */
function readRow(rowInfo: ProtoMessage, columnCount: number, read: (record: Uint8Array) => string): string[] {
  const buffer = bytes(rowInfo, 6);
  const offsetBytes = bytes(rowInfo, 7);
  if (!buffer || !offsetBytes) return [];
  const scale = number(rowInfo, 8) === 1 ? 4 : 1;
  const view = new DataView(offsetBytes.buffer, offsetBytes.byteOffset, offsetBytes.byteLength);
  const count = Math.floor(offsetBytes.byteLength / 2);
  const starts = Array.from({ length: count }, (_, column) => view.getInt16(column * 2, true));
  // a record runs to the next column that has one, or to the end of the buffer
  const ends = new Array<number>(count);
  let next = buffer.length;
  for (let column = count - 1; column >= 0; column--) {
    ends[column] = next;
    if (starts[column]! >= 0) next = starts[column]! * scale;
  }
  const cells: string[] = [];
  for (let column = 0; column < Math.min(columnCount, count); column++) {
    if (starts[column]! < 0) continue;
    const start = starts[column]! * scale;
    const end = ends[column]!;
    if (start >= end || end > buffer.length) continue;
    while (cells.length < column) cells.push('');
    cells[column] = read(buffer.subarray(start, end));
  }
  return cells;
}

/** Optional fields after a cell record's 12-byte header, by flag bit, and their sizes. */
const FIELD_SIZES: ReadonlyArray<[flag: number, size: number]> = [
  [0x1, 16], // decimal128
  [0x2, 8], // double
  [0x4, 8], // seconds since 2001
  [0x8, 4], // string id
  [0x10, 4], // rich text id
  [0x20, 4],
  [0x40, 4],
  [0x80, 4],
  [0x100, 4],
  [0x200, 4], // formula id
  [0x400, 4],
  [0x800, 4],
  [0x1000, 4],
  [0x2000, 4],
  [0x4000, 4],
  [0x8000, 4],
  [0x10000, 4],
  [0x20000, 4],
  [0x40000, 4],
  [0x80000, 4],
  [0x100000, 4],
];

function cellText(
  record: Uint8Array,
  strings: Map<number, ProtoMessage>,
  richTexts: Map<number, ProtoMessage>,
  objects: Map<number, IwaObject>,
): string {
  if (record.length < 12 || record[0] !== 5) return '';
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  const flags = view.getUint32(8, true);
  const at: Record<number, number> = {};
  let position = 12;
  for (const [flag, size] of FIELD_SIZES) {
    if ((flags & flag) === 0) continue;
    if (position + size > record.length) return '';
    at[flag] = position;
    position += size;
  }
  switch (record[1]) {
    case 2: // number
    case 10: // currency
      return at[0x1] === undefined ? '' : decimal128(record.subarray(at[0x1], at[0x1] + 16));
    case 3: // text
      return at[0x8] === undefined
        ? ''
        : (string(strings.get(view.getUint32(at[0x8], true)) ?? new Map(), 3) ?? '');
    case 5: // date
      return at[0x4] === undefined ? '' : appleDate(view.getFloat64(at[0x4], true));
    case 6: // boolean
      return at[0x2] === undefined ? '' : view.getFloat64(at[0x2], true) > 0 ? 'TRUE' : 'FALSE';
    case 7: // duration, in seconds
      return at[0x2] === undefined ? '' : duration(view.getFloat64(at[0x2], true));
    case 9: // rich text: payload → storage → its text
      return at[0x10] === undefined ? '' : richText(richTexts.get(view.getUint32(at[0x10], true)), objects);
    default:
      return '';
  }
}

function richText(entry: ProtoMessage | undefined, objects: Map<number, IwaObject>): string {
  const payload = entry && objects.get(reference(entry, 9) ?? -1);
  const storage = payload && objects.get(reference(decodeMessage(payload.data), 1) ?? -1);
  return storage ? (string(decodeMessage(storage.data), 3) ?? '') : '';
}

/** IEEE 754-2008 decimal128 with a binary significand, as Numbers stores numbers, written out exactly. */
function decimal128(bytes16: Uint8Array): string {
  const exponent = (((bytes16[15]! & 0x7f) << 7) | (bytes16[14]! >> 1)) - 0x1820;
  let mantissa = BigInt(bytes16[14]! & 1);
  for (let i = 13; i >= 0; i--) mantissa = mantissa * 256n + BigInt(bytes16[i]!);
  const negative = (bytes16[15]! & 0x80) !== 0;
  let digits = mantissa.toString();
  let text: string;
  if (exponent >= 0) {
    text = mantissa === 0n ? '0' : digits + '0'.repeat(Math.min(exponent, 400));
  } else {
    const places = -exponent;
    digits = digits.padStart(places + 1, '0');
    const whole = digits.slice(0, digits.length - places);
    const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
    text = fraction ? `${whole}.${fraction}` : whole;
  }
  return negative && text !== '0' ? `-${text}` : text;
}

function appleDate(seconds: number): string {
  const date = new Date((seconds + APPLE_EPOCH_SECONDS) * 1000);
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}

function duration(seconds: number): string {
  const whole = Math.round(Math.abs(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return `${seconds < 0 ? '-' : ''}${hours}:${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
