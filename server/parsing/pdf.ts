// PDF through unpdf (its own PDF.js build; DESIGN §10: never load pdfjs-dist beside it). Text page by page,
// lines kept where the PDF ends them, pages separated by a form feed on its own line. PDF.js runs without eval,
// fonts or a worker thread, and its standard font data is read from disk, never fetched.
import { getDocumentProxy } from 'unpdf';
import { CorruptFileError, UnsupportedFileError } from './errors';
import { TextBudget, raceAbort, type FormatResult, type ParseContext } from './limits';
import { isPlaceholderTitle } from './titles';

export const PAGE_BREAK = '\n\f\n';

/** A line drawn this much larger than the page's body text is a heading. */
const HEADING_SIZE_RATIO = 1.15;
/** A first line longer than this, or ending a sentence, is body text rather than a title. */
const MAX_TITLE_LINE_CHARS = 120;

export interface TextItem {
  str: string;
  hasEOL: boolean;
  /** The text matrix: [4] is x, [5] is y (PDF space, y up). */
  transform: number[];
  width: number;
  height: number;
}

export async function parsePdf(context: ParseContext): Promise<FormatResult> {
  const { signal } = context;
  // PDF.js takes ownership of (and detaches) the buffer it is given; the caller's bytes stay theirs
  const data = context.bytes.slice();
  const pdf = await raceAbort(signal, openPdf(data));
  try {
    const budget = new TextBudget(context.limits.maxChars);
    let heading: string | undefined;
    for (let number = 1; number <= pdf.numPages && !budget.full; number++) {
      signal.throwIfAborted();
      const page = await raceAbort(signal, pdf.getPage(number));
      const content = await raceAbort(signal, page.getTextContent());
      page.cleanup();
      const lines = pageLines(content.items as TextItem[]);
      if (number === 1) heading = firstHeading(lines);
      if (number > 1) budget.push(PAGE_BREAK);
      budget.push(linesText(lines));
    }
    const metadata = await raceAbort(
      signal,
      pdf.getMetadata().catch(() => undefined),
    );
    const info = (metadata?.info ?? {}) as { Title?: unknown };
    const metadataTitle = typeof info.Title === 'string' ? info.Title.trim() : '';
    return {
      title: metadataTitle && !isPlaceholderTitle(metadataTitle) ? metadataTitle : heading,
      text: budget.toString(),
      pages: pdf.numPages,
      truncated: budget.full,
    };
  } finally {
    void pdf.destroy();
  }
}

async function openPdf(data: Uint8Array) {
  try {
    return await getDocumentProxy(data, {
      isEvalSupported: false,
      disableFontFace: true,
      stopAtErrors: false,
      // errors only: PDF.js otherwise logs every recoverable oddity of a file to the console
      verbosity: 0,
    });
  } catch (error) {
    if ((error as Error).name === 'PasswordException') {
      throw new UnsupportedFileError('Password-protected PDF files cannot be read.', { cause: error });
    }
    throw new CorruptFileError(`pdf: ${(error as Error).message}`, { cause: error });
  }
}

interface PageLine {
  text: string;
  /** The largest font size on the line (PDF units). */
  size: number;
}

/**
 * A page's text items in PDF.js's reading order. Where the PDF does not mark line ends, a move to another baseline
 * starts a new line, and a gap on the same baseline (columns of a table drawn as separate strings) becomes a space.
 */
export function pageText(items: readonly TextItem[]): string {
  return linesText(pageLines(items));
}

function linesText(lines: readonly PageLine[]): string {
  return lines
    .map((line) => line.text)
    .join('\n')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

function pageLines(items: readonly TextItem[]): PageLine[] {
  const lines: PageLine[] = [];
  let line: PageLine = { text: '', size: 0 };
  const endLine = () => {
    lines.push(line);
    line = { text: '', size: 0 };
  };
  let lastY: number | undefined;
  let lastEnd = 0;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const x = item.transform?.[4] ?? 0;
    const y = item.transform?.[5] ?? 0;
    const size = item.height || 10;
    if (lastY !== undefined && line.text !== '' && item.str !== '') {
      if (Math.abs(y - lastY) > size / 2) endLine();
      else if (x - lastEnd > size / 4 && !/\s$/.test(line.text) && !/^\s/.test(item.str)) line.text += ' ';
    }
    line.text += item.str;
    if (item.str.trim()) line.size = Math.max(line.size, size);
    if (item.hasEOL) endLine();
    lastY = y;
    lastEnd = x + (item.width || 0);
  }
  endLine();
  return lines;
}

/**
 * The first page's heading: its first line set larger than most of its text, else a first line that reads as a
 * title (short, not ending a sentence). Page numbers and running heads in small print do not count.
 */
function firstHeading(lines: readonly PageLine[]): string | undefined {
  const written = lines.filter((line) => line.text.trim() !== '');
  const charsBySize = new Map<number, number>();
  for (const line of written)
    charsBySize.set(line.size, (charsBySize.get(line.size) ?? 0) + line.text.length);
  const bodySize = [...charsBySize].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const larger = written.find((line) => line.size > bodySize * HEADING_SIZE_RATIO);
  const candidate = (larger ?? written[0])?.text.replace(/\s+/g, ' ').trim() ?? '';
  const readsAsTitle =
    candidate.length <= MAX_TITLE_LINE_CHARS && /\p{L}/u.test(candidate) && !/[.;,]$/.test(candidate);
  return readsAsTitle ? candidate : undefined;
}
