// Files to searchable text (DESIGN §4, §10): uploads, and files the connectors fetch. One entry point picks the
// parser by content and name (detect.ts), runs it within the limits (limits.ts), and returns text whose headings
// are Markdown '#' lines, so the chunker can build section paths.
import { CorruptFileError, FileTooLargeError, NoContentError } from './errors';
import { parseDelimited } from './csv';
import { detectFileKind, FILE_TYPE_OF_KIND, type FileKind, type ParsedFileType } from './detect';
import { parseDocx } from './docx';
import { parseHtml } from './html';
import {
  DEFAULT_PARSE_LIMITS,
  truncationWarning,
  withDeadline,
  type FormatResult,
  type ParseContext,
  type ParseLimits,
} from './limits';
import { parseNumbers } from './numbers';
import { parseOfficeFile } from './office';
import { parsePdf } from './pdf';
import { parseRtf } from './rtf';
import { parseText } from './text';
import { isPlaceholderTitle, openingHeading } from './titles';
import { checkArchive } from './zip';

export * from './errors';
export { DEFAULT_PARSE_LIMITS, type ParseLimits } from './limits';
export type { FileKind, ParsedFileType } from './detect';
export { PAGE_BREAK } from './pdf';
export { checkArchive, readZipDirectory, readZipEntry, type ZipEntry } from './zip';

export interface ParseFileInput {
  /** The file's name as the user or the source gave it; its extension helps when the bytes do not decide. */
  fileName: string;
  /** The MIME type the source declared (Google's export types included), if any. */
  mimeType?: string;
  bytes: Uint8Array;
}

export interface ParseFileOptions extends Partial<ParseLimits> {
  /** Abandons the parse (with the signal's reason) when aborted. */
  signal?: AbortSignal;
}

export interface ParsedFile {
  /**
   * The document's own title (metadata, <title>, first slide, a PDF's first heading, a level-one heading the text
   * opens with), else the file name without its extension.
   */
  title: string;
  /** Lines and blank-line-separated blocks; headings as '# '…'###### ' lines; PDF pages separated by PAGE_BREAK. */
  text: string;
  fileType: ParsedFileType;
  /** PDF pages, or slides of a presentation. */
  pages?: number;
  /** What was dropped or guessed on the way (truncation, a Latin-1 fallback, unreadable parts). */
  warnings: string[];
}

const MAX_TITLE_CHARS = 300;
const MB = 1024 * 1024;

/**
 * Extracts the text of a file. Throws NoContentError ('No content was parsed from the file.') when there is no
 * text or the file cannot be read, UnsupportedFileError for a type Scout does not read, FileTooLargeError past a
 * size limit, and ParseTimeoutError past the time limit.
 */
export async function parseFile(input: ParseFileInput, options: ParseFileOptions = {}): Promise<ParsedFile> {
  const { signal: outerSignal, ...overrides } = options;
  const limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS, ...withoutUndefined(overrides) };
  const { bytes } = input;
  if (bytes.length > limits.maxBytes) {
    throw new FileTooLargeError(`The file is larger than ${Math.round(limits.maxBytes / MB)} MB.`);
  }
  if (bytes.length === 0) throw new NoContentError('empty file');

  return withDeadline(limits.timeoutMs, outerSignal, async (signal) => {
    const detected = detectFileKind({ ...input, maxArchiveEntries: limits.maxArchiveEntries });
    const zipEntries = detected.zipEntries && checkArchive(bytes, limits, detected.zipEntries);
    const warnings: string[] = [];
    const context: ParseContext = {
      bytes,
      limits,
      signal,
      warnings,
      ...(zipEntries ? { zipEntries } : {}),
    };
    const result = await parseKind(detected.kind, context);
    signal.throwIfAborted();

    let text = tidy(result.text);
    if (result.truncated || text.length > limits.maxChars) {
      text = text.slice(0, limits.maxChars).trimEnd();
      warnings.push(truncationWarning(limits.maxChars));
    }
    if (text.trim() === '') throw new NoContentError(`no text in ${detected.kind}`);
    return {
      title: documentTitle(result.title, text, input.fileName),
      text,
      fileType: detected.unknownText ? 'other' : FILE_TYPE_OF_KIND[detected.kind],
      ...(result.pages !== undefined ? { pages: result.pages } : {}),
      warnings,
    };
  });
}

function parseKind(kind: FileKind, context: ParseContext): Promise<FormatResult> | FormatResult {
  switch (kind) {
    case 'pdf':
      return parsePdf(context);
    case 'docx':
      return parseDocx(context);
    case 'pptx':
    case 'xlsx':
    case 'odt':
    case 'ods':
    case 'odp':
      return parseOfficeFile(context, kind);
    case 'numbers':
      return parseNumbers(context);
    case 'rtf':
      return parseRtf(context);
    case 'csv':
    case 'tsv':
      return parseDelimited(context, kind);
    case 'html':
      return parseHtml(context);
    case 'text':
      return parseText(context);
    default:
      throw new CorruptFileError(`no parser for ${kind satisfies never}`);
  }
}

/**
 * One normal form for every format: '\n' line ends, no control characters other than tab, line feed and form
 * feed (the PDF page break), no trailing spaces, at most one blank line in a row.
 */
function tidy(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, '')
      .replace(/[ \t\u00a0]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/**
 * The title the document gives itself (its metadata, else the level-one heading it opens with), else its file
 * name; never one its software filled in ("about:blank", "Untitled").
 */
function documentTitle(own: string | undefined, text: string, fileName: string): string {
  const title = cleanTitle(own);
  if (title && !isPlaceholderTitle(title)) return title;
  return cleanTitle(openingHeading(text)) || titleFromFileName(fileName);
}

function cleanTitle(title: string | undefined): string {
  return (title ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS);
}

function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim() || base;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
