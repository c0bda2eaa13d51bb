// Real sample files for the parsing tests, built in memory. PDF and DOCX come from their writers (pdf-lib, docx);
// XLSX, PPTX, ODT and Numbers, which nothing here writes, are assembled from the minimal parts their readers need,
// listed beside each builder. Imported by tests only.
import { Document, HeadingLevel, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DEFAULT_PARSE_LIMITS, type ParseContext, type ParseLimits } from './limits';

/**
 * A PDF with one page per entry, each line of a page drawn on its own line of text; a line given as an array is
 * drawn as separate strings 160 points apart on one baseline, as tables often are, and one given with a size is
 * drawn in that size (12 otherwise), as headings are.
 */
export async function makePdf(
  pages: Array<Array<string | string[] | { text: string; size: number }>>,
  title?: string,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 595]);
    lines.forEach((line, index) => {
      const { pieces, size } =
        typeof line === 'string'
          ? { pieces: [line], size: 12 }
          : Array.isArray(line)
            ? { pieces: line, size: 12 }
            : { pieces: [line.text], size: line.size };
      pieces.forEach((piece, column) =>
        page.drawText(piece, { x: 40 + column * 160, y: 540 - index * 24, size, font }),
      );
    });
  }
  return pdf.save();
}

/** A Word document: title in the core properties, two heading levels, a bulleted list and a table. */
export async function makeDocx(): Promise<Uint8Array> {
  const document = new Document({
    title: 'Employee Handbook 2027',
    numbering: {
      config: [{ reference: 'bullets', levels: [{ level: 0, format: LevelFormat.BULLET, text: '•' }] }],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Welcome', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Everyone gets a laptop on day one.'),
          new Paragraph({ text: 'Benefits', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Health insurance', numbering: { reference: 'bullets', level: 0 } }),
          new Paragraph({ text: 'Paid parental leave', numbering: { reference: 'bullets', level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Plan'), cell('Monthly cost')] }),
              new TableRow({ children: [cell('Basic'), cell('$10')] }),
            ],
          }),
          new Paragraph({ text: 'Travel', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('Book trains for trips under four hours.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

function cell(text: string): TableCell {
  return new TableCell({ children: [new Paragraph(text)] });
}

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const xml = (body: string) => strToU8(XML_HEADER + body);
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';

function contentTypes(overrides: Array<[part: string, type: string]>): Uint8Array {
  const entries = overrides
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join('');
  return xml(
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>${entries}</Types>`,
  );
}

function relationships(targets: Array<[id: string, type: string, target: string]>): Uint8Array {
  const entries = targets
    .map(
      ([id, type, target]) => `<Relationship Id="${id}" Type="${RELATIONSHIPS}/${type}" Target="${target}"/>`,
    )
    .join('');
  return xml(`<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${entries}</Relationships>`);
}

export interface SheetSample {
  name: string;
  rows: Array<Array<string | number | boolean | Date>>;
}

/**
 * An XLSX workbook. Parts: [Content_Types].xml, _rels/.rels (→ the workbook), xl/workbook.xml (the sheet list),
 * xl/_rels/workbook.xml.rels (sheet ids → parts), xl/styles.xml (cell styles: 0 General, 1 the built-in date
 * format 14, 2 a custom date-and-time format) and one xl/worksheets/sheetN.xml per sheet, with strings inline
 * (t="inlineStr") so no shared-string table is needed. Dates are written as Excel serial numbers.
 */
export function makeXlsx(sheets: SheetSample[]): Uint8Array {
  const SHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
  const files: Zippable = {
    '[Content_Types].xml': contentTypes([
      ['/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
      ...sheets.map((_, i): [string, string] => [`/xl/worksheets/sheet${i + 1}.xml`, SHEET_TYPE]),
    ]),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml': xml(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${RELATIONSHIPS}"><sheets>` +
        sheets
          .map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join('') +
        `</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': relationships([
      ...sheets.map((_, i): [string, string, string] => [
        `rId${i + 1}`,
        'worksheet',
        `worksheets/sheet${i + 1}.xml`,
      ]),
      ['rIdStyles', 'styles', 'styles.xml'],
    ]),
    'xl/styles.xml': xml(
      `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
        `<numFmts count="1"><numFmt numFmtId="164" formatCode="d&quot; &quot;mmm yyyy h:mm"/></numFmts>` +
        `<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/>` +
        `<xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ),
  };
  sheets.forEach((sheet, i) => {
    const rows = sheet.rows
      .map((row, r) => {
        const cells = row.map((value, c) => {
          const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
          if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
          if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
          if (value instanceof Date) {
            const serial = (value.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;
            return `<c r="${ref}" s="${Number.isInteger(serial) ? 1 : 2}"><v>${serial}</v></c>`;
          }
          return `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(value)}</t></is></c>`;
        });
        return `<row r="${r + 1}">${cells.join('')}</row>`;
      })
      .join('');
    files[`xl/worksheets/sheet${i + 1}.xml`] = xml(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
    );
  });
  return zipSync(files);
}

export interface SlideSample {
  title: string;
  bullets: string[];
}

/**
 * A PPTX deck. Parts: [Content_Types].xml, _rels/.rels (→ the presentation), ppt/presentation.xml (the slide id
 * list), ppt/_rels/presentation.xml.rels (ids → slide parts) and one ppt/slides/slideN.xml per slide: a title
 * placeholder shape and a body shape with one paragraph per bullet.
 */
export function makePptx(slides: SlideSample[]): Uint8Array {
  const NS =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
    `xmlns:r="${RELATIONSHIPS}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
  const SLIDE_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
  const shape = (id: number, placeholder: string, paragraphs: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr>` +
    `<p:spPr/><p:txBody><a:bodyPr/>` +
    paragraphs.map((text) => `<a:p><a:r><a:t>${escapeXml(text)}</a:t></a:r></a:p>`).join('') +
    `</p:txBody></p:sp>`;
  const files: Zippable = {
    '[Content_Types].xml': contentTypes([
      [
        '/ppt/presentation.xml',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      ],
      ...slides.map((_, i): [string, string] => [`/ppt/slides/slide${i + 1}.xml`, SLIDE_TYPE]),
    ]),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml': xml(
      `<p:presentation ${NS}><p:sldIdLst>` +
        slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('') +
        `</p:sldIdLst></p:presentation>`,
    ),
    'ppt/_rels/presentation.xml.rels': relationships(
      slides.map((_, i): [string, string, string] => [`rId${i + 1}`, 'slide', `slides/slide${i + 1}.xml`]),
    ),
  };
  slides.forEach((slide, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = xml(
      `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
        `<p:grpSpPr/>${shape(2, '<p:ph type="title"/>', [slide.title])}${shape(3, '<p:ph idx="1"/>', slide.bullets)}` +
        `</p:spTree></p:cSld></p:sld>`,
    );
  });
  return zipSync(files);
}

const ODF_NAMESPACES =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"';

/**
 * An OpenDocument package. Parts: `mimetype` (first and stored, as the format requires), META-INF/manifest.xml,
 * meta.xml (the title) and content.xml (the body, given as the inside of <office:body>).
 */
export function makeOpenDocument(mimeType: string, title: string, body: string): Uint8Array {
  return zipSync({
    mimetype: [strToU8(mimeType), { level: 0 }],
    'META-INF/manifest.xml': xml(
      `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">` +
        `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimeType}"/>` +
        `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>` +
        `<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    ),
    'meta.xml': xml(
      `<office:document-meta ${ODF_NAMESPACES}><office:meta><dc:title>${escapeXml(title)}</dc:title></office:meta></office:document-meta>`,
    ),
    'content.xml': xml(
      `<office:document-content ${ODF_NAMESPACES}><office:body>${body}</office:body></office:document-content>`,
    ),
  });
}

// ── Apple Numbers ────────────────────────────────────────────────────────────────────────────────────────────

type Field = [field: number, value: number | string | Uint8Array];

/** A protobuf message from (field, value) pairs: numbers as varints, strings and bytes length-delimited. */
export function protobuf(fields: Field[]): Uint8Array {
  const parts: number[] = [];
  for (const [field, value] of fields) {
    if (typeof value === 'number') {
      parts.push(...varint(field * 8), ...varint(value));
    } else {
      const payload = typeof value === 'string' ? strToU8(value) : value;
      parts.push(...varint(field * 8 + 2), ...varint(payload.length), ...payload);
    }
  }
  return Uint8Array.from(parts);
}

function varint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

const ref = (id: number) => protobuf([[1, id]]);

/** Snappy with literals only: valid input for any Snappy reader, just not compressed. */
function snappyLiterals(data: Uint8Array): Uint8Array {
  const out = [...varint(data.length)];
  for (let at = 0; at < data.length; at += 65536) {
    const piece = data.subarray(at, at + 65536);
    const length = piece.length - 1;
    if (length < 60) out.push(length << 2);
    else out.push(61 << 2, length & 0xff, length >> 8);
    out.push(...piece);
  }
  return Uint8Array.from(out);
}

/** An .iwa file holding `objects` (identifier, type, message), each in its own archive, in one chunk. */
export function iwaFile(objects: Array<[id: number, type: number, message: Uint8Array]>): Uint8Array {
  const stream: number[] = [];
  for (const [id, type, message] of objects) {
    const info = protobuf([
      [1, id],
      [
        2,
        protobuf([
          [1, type],
          [3, message.length],
        ]),
      ],
    ]);
    stream.push(...varint(info.length), ...info, ...message);
  }
  const compressed = snappyLiterals(Uint8Array.from(stream));
  return Uint8Array.from([
    0,
    compressed.length & 0xff,
    (compressed.length >> 8) & 0xff,
    compressed.length >> 16,
    ...compressed,
  ]);
}

/** A version-5 cell record: the 12-byte header, then the fields its flags announce. */
function cellRecord(type: number, flags: number, fields: Uint8Array): Uint8Array {
  const record = new Uint8Array(12 + fields.length);
  const view = new DataView(record.buffer);
  record[0] = 5;
  record[1] = type;
  view.setUint32(8, flags, true);
  record.set(fields, 12);
  return record;
}

function textCell(stringId: number): Uint8Array {
  const id = new Uint8Array(4);
  new DataView(id.buffer).setUint32(0, stringId, true);
  return cellRecord(3, 0x8, id);
}

/** A date (seconds since 2001-01-01, flag 0x4) or boolean (flag 0x2) cell: one float64 field. */
function doubleCell(type: number, flag: number, value: number): Uint8Array {
  const field = new Uint8Array(8);
  new DataView(field.buffer).setFloat64(0, value, true);
  return cellRecord(type, flag, field);
}

/** A number cell: decimal128 with a binary significand, a sign bit and exponent biased by 0x1820. */
function numberCell(mantissa: bigint, exponent: number): Uint8Array {
  const d128 = new Uint8Array(16);
  let rest = mantissa < 0n ? -mantissa : mantissa;
  for (let i = 0; i < 14; i++) {
    d128[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  const biased = exponent + 0x1820;
  d128[14] = ((biased & 0x7f) << 1) | Number(rest & 1n);
  d128[15] = ((biased >> 7) & 0x7f) | (mantissa < 0n ? 0x80 : 0);
  return cellRecord(2, 0x1, d128);
}

/**
 * A .numbers file with one sheet holding one table, cells given as text, [mantissa, exponent] numbers, dates or
 * booleans. Objects:
 * 1 TN.DocumentArchive (sheets = 1) → 2 TN.SheetArchive (name = 1, drawable_infos = 2) → 3 TST.TableInfoArchive
 * (tableModel = 2) → 4 TST.TableModelArchive (base_data_store = 4, rows = 6, columns = 7, table_name = 8), whose
 * DataStore holds the TileStorage (tiles = 3) and the string table reference (4) → 6 TST.TableDataList; the
 * cells are in 5 TST.Tile (rowInfos = 5, last_saved_in_BNC = 7), one TileRowInfo per row with its records
 * (cell_storage_buffer = 6) and 16-bit offsets (cell_offsets = 7).
 */
export type NumbersCell = string | [mantissa: bigint, exponent: number] | Date | boolean;

export function makeNumbers(
  sheetName: string,
  tableName: string,
  rows: NumbersCell[][],
  options: { savedBeforeNumbers10?: boolean } = {},
): Uint8Array {
  const strings: string[] = [];
  const rowInfos = rows.map((row, rowIndex) => {
    const records: Uint8Array[] = row.map((value) => {
      if (typeof value === 'string') {
        let key = strings.indexOf(value);
        if (key < 0) key = strings.push(value) - 1;
        return textCell(key);
      }
      if (value instanceof Date) return doubleCell(5, 0x4, value.getTime() / 1000 - 978_307_200);
      if (typeof value === 'boolean') return doubleCell(6, 0x2, value ? 1 : 0);
      return numberCell(value[0], value[1]);
    });
    const offsets = new Uint8Array(row.length * 2);
    const view = new DataView(offsets.buffer);
    let at = 0;
    records.forEach((record, column) => {
      view.setInt16(column * 2, at, true);
      at += record.length;
    });
    const buffer = new Uint8Array(at);
    let position = 0;
    for (const record of records) {
      buffer.set(record, position);
      position += record.length;
    }
    return protobuf([
      [1, rowIndex],
      [2, row.length],
      [5, 5],
      [6, buffer],
      [7, offsets],
    ]);
  });
  const tile = protobuf([
    [1, Math.max(...rows.map((row) => row.length)) - 1],
    [2, rows.length - 1],
    [3, rows.flat().length],
    [4, rows.length],
    ...rowInfos.map((info): Field => [5, info]),
    [6, 5],
    [7, options.savedBeforeNumbers10 ? 0 : 1],
  ]);
  const dataList = protobuf([
    [1, 1],
    [2, strings.length],
    ...strings.map((text, key): Field => [
      3,
      protobuf([
        [1, key],
        [2, 1],
        [3, text],
      ]),
    ]),
  ]);
  const tileStorage = protobuf([
    [
      1,
      protobuf([
        [1, 0],
        [2, ref(5)],
      ]),
    ],
    [2, 256],
  ]);
  const dataStore = protobuf([
    [3, tileStorage],
    [4, ref(6)],
  ]);
  const model = protobuf([
    [1, 'table-1'],
    [4, dataStore],
    [6, rows.length],
    [7, Math.max(...rows.map((row) => row.length))],
    [8, tableName],
  ]);
  return zipSync({
    'Index/Document.iwa': iwaFile([
      [1, 1, protobuf([[1, ref(2)]])],
      [
        2,
        2,
        protobuf([
          [1, sheetName],
          [2, ref(3)],
        ]),
      ],
      [3, 6000, protobuf([[2, ref(4)]])],
      [4, 6001, model],
    ]),
    'Index/Tables/Tile.iwa': iwaFile([[5, 6002, tile]]),
    'Index/Tables/DataList.iwa': iwaFile([[6, 6005, dataList]]),
    'Metadata/Properties.plist': strToU8('bplist00'),
  });
}

/** A context for calling one format's parser directly, with the default limits unless given. */
export function parseContext(bytes: Uint8Array, limits: Partial<ParseLimits> = {}): ParseContext {
  return {
    bytes,
    limits: { ...DEFAULT_PARSE_LIMITS, ...limits },
    signal: new AbortController().signal,
    warnings: [],
  };
}
