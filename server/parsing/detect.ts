// Which parser a file goes to. The bytes decide first (a '.docx' that is really a PDF is read as a PDF, and a ZIP
// is identified by what it holds); the name and MIME type decide between the formats that have no signature
// (CSV, TSV, HTML, plain text). Google Docs, Slides and Sheets arrive as their Office, PDF or CSV exports, so
// their MIME types only break ties.
import { UnsupportedFileError } from './errors';
import { findEntry, looksLikeZip, readZipDirectory, readZipEntry, type ZipEntry } from './zip';

export type FileKind =
  | 'pdf'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'numbers'
  | 'rtf'
  | 'csv'
  | 'tsv'
  | 'html'
  | 'text';

export type ParsedFileType = 'document' | 'presentation' | 'spreadsheet' | 'pdf' | 'other';

export const FILE_TYPE_OF_KIND: Readonly<Record<FileKind, ParsedFileType>> = {
  pdf: 'pdf',
  docx: 'document',
  odt: 'document',
  rtf: 'document',
  html: 'document',
  text: 'document',
  pptx: 'presentation',
  odp: 'presentation',
  xlsx: 'spreadsheet',
  ods: 'spreadsheet',
  numbers: 'spreadsheet',
  csv: 'spreadsheet',
  tsv: 'spreadsheet',
};

export const KIND_OF_EXTENSION: Readonly<Record<string, FileKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  dotx: 'docx',
  dotm: 'docx',
  pptx: 'pptx',
  pptm: 'pptx',
  ppsx: 'pptx',
  ppsm: 'pptx',
  potx: 'pptx',
  potm: 'pptx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  xltx: 'xlsx',
  xltm: 'xlsx',
  odt: 'odt',
  ott: 'odt',
  ods: 'ods',
  ots: 'ods',
  odp: 'odp',
  otp: 'odp',
  numbers: 'numbers',
  rtf: 'rtf',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  md: 'text',
  markdown: 'text',
};

export const KIND_OF_MIME_TYPE: Readonly<Record<string, FileKind>> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template': 'docx',
  'application/vnd.ms-word.document.macroenabled.12': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.template': 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'application/vnd.ms-excel.template.macroenabled.12': 'xlsx',
  'application/vnd.google-apps.document': 'docx',
  'application/vnd.google-apps.presentation': 'pptx',
  'application/vnd.google-apps.spreadsheet': 'xlsx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.apple.numbers': 'numbers',
  'application/x-iwork-numbers-sffnumbers': 'numbers',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/markdown': 'text',
};

/** Formats Scout recognises but cannot read, by extension: the error names them. */
const UNREADABLE_EXTENSIONS: Readonly<Record<string, string>> = {
  doc: 'Word 97–2003 (.doc) files are not supported. Save the file as .docx and try again.',
  dot: 'Word 97–2003 (.dot) files are not supported. Save the file as .docx and try again.',
  xls: 'Excel 97–2003 (.xls) files are not supported. Save the file as .xlsx and try again.',
  xlt: 'Excel 97–2003 (.xlt) files are not supported. Save the file as .xlsx and try again.',
  xlsb: 'Excel binary (.xlsb) files are not supported. Save the file as .xlsx and try again.',
  ppt: 'PowerPoint 97–2003 (.ppt) files are not supported. Save the file as .pptx and try again.',
  pps: 'PowerPoint 97–2003 (.pps) files are not supported. Save the file as .pptx and try again.',
  pot: 'PowerPoint 97–2003 (.pot) files are not supported. Save the file as .pptx and try again.',
  pages: 'Apple Pages files are not supported. Export the document to Word or PDF and try again.',
  key: 'Apple Keynote files are not supported. Export the presentation to PowerPoint or PDF and try again.',
  zip: 'ZIP archives are not documents: upload them through the zip upload.',
};

export interface DetectInput {
  fileName: string;
  mimeType?: string;
  bytes: Uint8Array;
  /** The archive's central directory, when the caller has read it already. */
  zipEntries?: readonly ZipEntry[];
  maxArchiveEntries: number;
}

export interface Detected {
  kind: FileKind;
  /** Set for ZIP-based kinds: the directory, read once. */
  zipEntries?: readonly ZipEntry[];
  /** The file's type is not one of the known extensions: plain text of no particular kind. */
  unknownText?: boolean;
}

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function detectFileKind(input: DetectInput): Detected {
  const { bytes } = input;
  const extension = extensionOf(input.fileName);
  const mimeType = (input.mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = KIND_OF_EXTENSION[extension] ?? KIND_OF_MIME_TYPE[mimeType];

  if (startsWith(bytes, PDF_MAGIC, 1024)) return { kind: 'pdf' };
  if (looksLikeZip(bytes)) {
    const zipEntries = input.zipEntries ?? readZipDirectory(bytes, input.maxArchiveEntries);
    return { kind: zipKind(bytes, zipEntries, extension, declared), zipEntries };
  }
  if (startsWith(bytes, OLE2_MAGIC)) throw new UnsupportedFileError(legacyOfficeMessage(bytes, extension));
  if (startsWith(bytes, RTF_MAGIC)) return { kind: 'rtf' };
  const binary = binarySignature(bytes);
  if (binary) throw new UnsupportedFileError(`${binary} files are not supported.`);
  if (!looksLikeText(bytes)) throw new UnsupportedFileError(unsupportedMessage(extension));

  // Text from here on: the name or MIME type chooses, and an HTML page says so itself.
  if (declared === 'csv' || declared === 'tsv' || declared === 'html' || declared === 'text') {
    return { kind: declared };
  }
  if (looksLikeHtml(bytes)) return { kind: 'html' };
  // Spreadsheets exported as text (Google Sheets as CSV, the many tools that write tab-separated '.xls') still
  // read as rows; the delimiter is sniffed.
  if (declared === 'xlsx' || declared === 'ods' || declared === 'numbers' || extension === 'xls') {
    return { kind: 'csv' };
  }
  const unreadable = UNREADABLE_EXTENSIONS[extension];
  if (unreadable) throw new UnsupportedFileError(unreadable);
  return { kind: 'text', unknownText: declared === undefined };
}

function zipKind(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  extension: string,
  declared: FileKind | undefined,
): FileKind {
  const has = (name: string) => findEntry(entries, name) !== undefined;
  const hasPrefix = (prefix: string) => entries.some((entry) => entry.name.startsWith(prefix));
  if (has('[Content_Types].xml')) {
    if (hasPrefix('word/')) return 'docx';
    if (hasPrefix('ppt/')) return 'pptx';
    if (hasPrefix('xl/')) {
      if (has('xl/workbook.bin')) throw new UnsupportedFileError(UNREADABLE_EXTENSIONS.xlsb!);
      return 'xlsx';
    }
  }
  const mimetype = findEntry(entries, 'mimetype');
  if (mimetype && mimetype.size < 200) {
    const declaredType = new TextDecoder().decode(readZipEntry(bytes, mimetype)).trim();
    if (declaredType.startsWith('application/vnd.oasis.opendocument.text')) return 'odt';
    if (declaredType.startsWith('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
    if (declaredType.startsWith('application/vnd.oasis.opendocument.presentation')) return 'odp';
    if (declaredType === 'application/epub+zip') {
      throw new UnsupportedFileError('EPUB books are not supported.');
    }
  }
  if (hasPrefix('Index/') && entries.some((entry) => entry.name.endsWith('.iwa'))) {
    // Numbers, Pages and Keynote share one container; the name (or the tables inside) tell them apart
    if (extension === 'pages') throw new UnsupportedFileError(UNREADABLE_EXTENSIONS.pages!);
    if (extension === 'key') throw new UnsupportedFileError(UNREADABLE_EXTENSIONS.key!);
    if (declared === 'numbers' || hasPrefix('Index/Tables/')) return 'numbers';
    if (hasPrefix('Index/Slide')) throw new UnsupportedFileError(UNREADABLE_EXTENSIONS.key!);
    throw new UnsupportedFileError(UNREADABLE_EXTENSIONS.pages!);
  }
  if (has('index.xml') || has('index.xml.gz') || has('Index.zip')) {
    throw new UnsupportedFileError(
      'Files from iWork ’09 and earlier are not supported. Export the file to Excel, Word or PDF and try again.',
    );
  }
  throw new UnsupportedFileError(UNREADABLE_EXTENSIONS.zip!);
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const RTF_MAGIC = [0x7b, 0x5c, 0x72, 0x74, 0x66]; // {\rtf

/** Signatures of common binary files that are certainly not documents, named for the error message. */
const BINARY_SIGNATURES: ReadonlyArray<{ name: string; at?: number; bytes: number[] }> = [
  { name: 'PNG image', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { name: 'JPEG image', bytes: [0xff, 0xd8, 0xff] },
  { name: 'GIF image', bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: 'WebP image', at: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
  { name: 'TIFF image', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { name: 'TIFF image', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { name: 'Video', at: 4, bytes: [0x66, 0x74, 0x79, 0x70] }, // ftyp: MP4, MOV, HEIC
  { name: 'MP3 audio', bytes: [0x49, 0x44, 0x33] },
  { name: 'GZIP archive', bytes: [0x1f, 0x8b] },
  { name: '7-Zip archive', bytes: [0x37, 0x7a, 0xbc, 0xaf] },
  { name: 'RAR archive', bytes: [0x52, 0x61, 0x72, 0x21] },
  { name: 'Executable', bytes: [0x7f, 0x45, 0x4c, 0x46] }, // ELF
  { name: 'Executable', bytes: [0x4d, 0x5a] }, // MZ
];

function binarySignature(bytes: Uint8Array): string | undefined {
  return BINARY_SIGNATURES.find((signature) => matchesAt(bytes, signature.bytes, signature.at ?? 0))?.name;
}

/** Legacy Office files are OLE2 containers; their stream names (UTF-16) say which application wrote them. */
function legacyOfficeMessage(bytes: Uint8Array, extension: string): string {
  const contains = (name: string) => indexOfUtf16(bytes, name) >= 0;
  if (contains('EncryptedPackage')) return 'Password-protected Office files cannot be read.';
  const byExtension = UNREADABLE_EXTENSIONS[extension];
  if (byExtension && extension !== 'zip') return byExtension;
  if (contains('WordDocument')) return UNREADABLE_EXTENSIONS.doc!;
  if (contains('Workbook') || contains('Book')) return UNREADABLE_EXTENSIONS.xls!;
  if (contains('PowerPoint Document')) return UNREADABLE_EXTENSIONS.ppt!;
  return 'Legacy Microsoft Office (OLE2) files are not supported. Save the file in a current format and try again.';
}

function unsupportedMessage(extension: string): string {
  return (
    UNREADABLE_EXTENSIONS[extension] ?? `${extension ? `.${extension}` : 'These'} files are not supported.`
  );
}

/** Text has no NUL bytes (unless it is UTF-16 with a byte-order mark) and few control characters. */
function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  const sample = bytes.subarray(0, 8192);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    // tab, line feed, form feed, carriage return and escape occur in real text files
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) {
      control++;
    }
  }
  return control <= sample.length * 0.05;
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 1024)).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /^<\?xml[^>]*>\s*<html/.test(head);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], within = 0): boolean {
  const last = Math.min(within, Math.max(0, bytes.length - prefix.length));
  for (let at = 0; at <= last; at++) if (matchesAt(bytes, prefix, at)) return true;
  return false;
}

function matchesAt(bytes: Uint8Array, expected: readonly number[], at: number): boolean {
  if (bytes.length < at + expected.length) return false;
  return expected.every((byte, i) => bytes[at + i] === byte);
}

function indexOfUtf16(bytes: Uint8Array, text: string): number {
  const needle = Buffer.from(text, 'utf16le');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle);
}
