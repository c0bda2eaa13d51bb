// PDF through unpdf (its own PDF.js build; DESIGN §10: never load pdfjs-dist beside it). Text page by page,
// lines kept where the PDF ends them, pages separated by a form feed on its own line. PDF.js runs without eval,
// fonts or a worker thread, and its standard font data is read from disk, never fetched.
import { getDocumentProxy } from 'unpdf';
import { CorruptFileError, UnsupportedFileError } from './errors';
import { TextBudget, raceAbort, type FormatResult, type ParseContext } from './limits';

export const PAGE_BREAK = '\n\f\n';

/** Titles PDF writers fill in for you: a title that says nothing about the document. */
const PLACEHOLDER_TITLE =
  /^(untitled|untitled document|document\d*|slide \d+|microsoft (word|powerpoint|excel) - .*)$/i;

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
    for (let number = 1; number <= pdf.numPages && !budget.full; number++) {
      signal.throwIfAborted();
      const page = await raceAbort(signal, pdf.getPage(number));
      const content = await raceAbort(signal, page.getTextContent());
      page.cleanup();
      if (number > 1) budget.push(PAGE_BREAK);
      budget.push(pageText(content.items as TextItem[]));
    }
    const metadata = await raceAbort(
      signal,
      pdf.getMetadata().catch(() => undefined),
    );
    const info = (metadata?.info ?? {}) as { Title?: unknown };
    const metadataTitle = typeof info.Title === 'string' ? info.Title.trim() : '';
    const text = budget.toString();
    return {
      title: PLACEHOLDER_TITLE.test(metadataTitle) || !metadataTitle ? firstLine(text) : metadataTitle,
      text,
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

/**
 * A page's text items in PDF.js's reading order. Where the PDF does not mark line ends, a move to another baseline
 * starts a new line, and a gap on the same baseline (columns of a table drawn as separate strings) becomes a space.
 */
export function pageText(items: readonly TextItem[]): string {
  let text = '';
  let lastY: number | undefined;
  let lastEnd = 0;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const x = item.transform?.[4] ?? 0;
    const y = item.transform?.[5] ?? 0;
    const size = item.height || 10;
    if (lastY !== undefined && text !== '' && !text.endsWith('\n') && item.str !== '') {
      if (Math.abs(y - lastY) > size / 2) text += '\n';
      else if (x - lastEnd > size / 4 && !/\s$/.test(text) && !/^\s/.test(item.str)) text += ' ';
    }
    text += item.str;
    if (item.hasEOL) text += '\n';
    lastY = y;
    lastEnd = x + (item.width || 0);
  }
  return text.replace(/[ \t]+\n/g, '\n').trim();
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '' && candidate !== '\f');
  return (line ?? '').trim().slice(0, 200);
}
