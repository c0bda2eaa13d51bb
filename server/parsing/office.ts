// PowerPoint, Excel and OpenDocument files through officeparser, walking its document tree so the structure
// survives: each slide starts with a '## Slide N' heading (its title a level below), each sheet with
// '## Sheet: Name' followed by its rows in the 'Column: value' form, and document headings keep their level.
//
// officeparser can OCR images with tesseract.js, which downloads language data at run time: OCR stays off (and
// attachments, the only thing OCR reads, are never extracted), so parsing never touches the network.
import { parseOffice, type OfficeContentNode, type OfficeParserConfig } from 'officeparser';
import { CorruptFileError } from './errors';
import { TextBudget, raceAbort, type FormatResult, type ParseContext } from './limits';
import { writeRows } from './rows';
import { MAX_COLUMNS, cellKey, formatCell, readXlsxCellFormats, type XlsxCellFormats } from './xlsx-cells';

export type OfficeKind = 'pptx' | 'xlsx' | 'odt' | 'ods' | 'odp';

const MAX_PARSER_WARNINGS = 5;

export async function parseOfficeFile(context: ParseContext, kind: OfficeKind): Promise<FormatResult> {
  const { limits, signal } = context;
  const parserWarnings: string[] = [];
  const config: OfficeParserConfig = {
    fileType: kind,
    ocr: false,
    extractAttachments: false,
    includeRawContent: false,
    ignoreComments: true,
    ignoreNotes: false,
    ignoreHeadersAndFooters: true,
    ignoreSlideMasters: true,
    outputErrorToConsole: false,
    abortSignal: signal,
    onWarning: (issue) => parserWarnings.push(issue.message),
    decompressionLimits: {
      maxUncompressedBytes: limits.maxUncompressedBytes,
      maxZipEntries: limits.maxArchiveEntries,
      // every cell costs at least a couple of characters of output, so more than this could never be kept
      maxTableCells: Math.max(1000, Math.ceil(limits.maxChars / 2)),
    },
  };
  const buffer = Buffer.from(context.bytes.buffer, context.bytes.byteOffset, context.bytes.byteLength);
  const ast = await raceAbort(
    signal,
    parseOffice(buffer, config).catch((error: unknown) => {
      if ((error as Error).name === 'AbortError') throw signal.reason ?? error;
      throw new CorruptFileError(`${kind}: ${(error as Error).message}`, { cause: error });
    }),
  );
  for (const warning of parserWarnings.slice(0, MAX_PARSER_WARNINGS)) context.warnings.push(warning);

  const cellFormats = kind === 'xlsx' ? readXlsxCellFormats(context) : undefined;
  const writer = new TreeWriter(new TextBudget(limits.maxChars), signal, cellFormats);
  let slides = 0;
  let firstSlideTitle: string | undefined;
  for (const node of ast.content) {
    if (writer.full) break;
    if (node.type === 'slide') {
      slides++;
      writer.heading(2, `Slide ${node.metadata?.slideNumber ?? slides}`);
      firstSlideTitle ??= node.children?.find((child) => child.type === 'heading')?.text?.trim() || undefined;
      writer.nodes(node.children ?? [], 2);
      const notes = (node.notes ?? []).map(nodeText).join('\n').trim();
      if (notes) writer.paragraph(`Notes: ${notes}`);
    } else if (node.type === 'sheet') {
      writer.heading(2, `Sheet: ${node.metadata?.sheetName ?? ''}`.trim());
      writer.sheet(node);
    } else {
      writer.nodes([node], 0);
    }
  }
  const metadataTitle = ast.metadata.title?.trim();
  return {
    title: metadataTitle || firstSlideTitle,
    text: writer.toString(),
    ...(slides > 0 ? { pages: slides } : {}),
    truncated: writer.full,
  };
}

/** Writes officeparser nodes as lines and blocks, within a character budget. */
class TreeWriter {
  #inList = false;

  constructor(
    readonly budget: TextBudget,
    readonly signal: AbortSignal,
    readonly cellFormats?: XlsxCellFormats,
  ) {}

  get full(): boolean {
    return this.budget.full;
  }

  heading(level: number, text: string): void {
    this.#block(`${'#'.repeat(Math.min(6, Math.max(1, level)))} ${oneLine(text)}`);
  }

  paragraph(text: string): void {
    this.#block(text);
  }

  /** `headingShift` pushes headings down below a synthetic heading ('## Slide 3' → '### Title'). */
  nodes(nodes: readonly OfficeContentNode[], headingShift: number): void {
    for (const node of nodes) {
      if (this.full) return;
      this.signal.throwIfAborted();
      switch (node.type) {
        case 'heading': {
          const text = nodeText(node).trim();
          if (text) this.heading((node.metadata?.level ?? 1) + headingShift, text);
          break;
        }
        case 'list': {
          const text = nodeText(node).trim();
          if (!text) break;
          const depth = node.metadata?.indentation ?? 0;
          const marker =
            node.metadata?.listType === 'ordered' ? `${(node.metadata.itemIndex ?? 0) + 1}. ` : '- ';
          this.budget.push(`${'  '.repeat(depth)}${marker}${oneLine(text)}\n`);
          this.#inList = true;
          break;
        }
        case 'table':
          this.#table(node);
          break;
        case 'sheet':
          this.sheet(node);
          break;
        case 'paragraph':
        case 'code':
        case 'text': {
          const text = nodeText(node).trim();
          if (text) this.#block(text);
          break;
        }
        case 'image':
        case 'chart':
        case 'drawing':
        case 'comment':
        case 'header':
        case 'footer':
        case 'slideMaster':
        case 'break':
          break;
        default:
          if (node.children?.length) this.nodes(node.children, headingShift);
          else if (node.text?.trim()) this.#block(node.text.trim());
      }
    }
  }

  /** A sheet's rows, header-aware (see rows.ts), dates and booleans shown as such (see xlsx-cells.ts). */
  sheet(sheet: OfficeContentNode): void {
    this.#closeList();
    const name = sheet.type === 'sheet' ? sheet.metadata?.sheetName : undefined;
    const formats = name === undefined ? undefined : this.cellFormats?.sheets.get(name);
    const date1904 = this.cellFormats?.date1904 ?? false;
    const show = formats
      ? (text: string, row: number, column: number) => {
          const format = formats.get(cellKey(row, column));
          return format ? formatCell(text, format, date1904) : text;
        }
      : undefined;
    writeRows(rowsOf(sheet, show), this.budget);
  }

  toString(): string {
    return this.budget.toString();
  }

  #table(table: OfficeContentNode): void {
    this.#closeList();
    const lines = rowsOf(table)
      .map((row) => row.map(oneLine).join('\t').trimEnd())
      .filter(Boolean);
    if (lines.length > 0) this.#block(lines.join('\n'));
  }

  #block(text: string): void {
    this.#closeList();
    this.budget.push(`${text}\n\n`);
  }

  #closeList(): void {
    if (this.#inList) this.budget.push('\n');
    this.#inList = false;
  }
}

/** Rows of a sheet or table as dense arrays, cells placed by their column index. */
function rowsOf(
  node: OfficeContentNode,
  show: (text: string, row: number, column: number) => string = (text) => text,
): string[][] {
  const rows: string[][] = [];
  (node.children ?? []).forEach((row, rowIndex) => {
    if (row.type !== 'row') return;
    const cells: string[] = [];
    (row.children ?? []).forEach((cell, index) => {
      if (cell.type !== 'cell') return;
      const column = cell.metadata?.col ?? index;
      // a cell claiming to lie past Excel's last column is not placed (it would pad the row to its column)
      if (column >= MAX_COLUMNS) return;
      while (cells.length < column) cells.push('');
      cells[column] = show(nodeText(cell), cell.metadata?.row ?? rowIndex, column);
    });
    rows.push(cells);
  });
  return rows;
}

function nodeText(node: OfficeContentNode): string {
  if (typeof node.text === 'string' && node.text !== '') return node.text;
  return (node.children ?? []).map(nodeText).join(node.children?.some((child) => child.children) ? '\n' : '');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
