// The files a user may upload (spec asking-questions §5): Word, PDF, RTF, Google Docs/Slides/Sheets (which reach
// us as their Office or PDF exports), Excel and its variants, PowerPoint, OpenDocument text, spreadsheets and
// presentations, Numbers, CSV, HTML, plain text and TSV; a ZIP is a separate upload of its own. The app checks
// drops against these lists and the server reads every type listed (server/parsing). Legacy binary Office files
// (.doc, .xls, .ppt) are left out because Scout cannot read them: refusing them at the drop says so at once.

interface UploadType {
  extensions: readonly string[];
  mimeTypes: readonly string[];
}

const UPLOAD_TYPES: Readonly<Record<string, UploadType>> = {
  word: {
    extensions: ['.docx', '.docm', '.dotx'],
    mimeTypes: [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
      'application/vnd.ms-word.document.macroEnabled.12',
    ],
  },
  pdf: { extensions: ['.pdf'], mimeTypes: ['application/pdf'] },
  rtf: { extensions: ['.rtf'], mimeTypes: ['application/rtf', 'text/rtf'] },
  google: {
    extensions: [],
    mimeTypes: [
      'application/vnd.google-apps.document',
      'application/vnd.google-apps.presentation',
      'application/vnd.google-apps.spreadsheet',
    ],
  },
  excel: {
    extensions: ['.xlsx', '.xlsm', '.xltx', '.xltm'],
    mimeTypes: [
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
      'application/vnd.ms-excel.sheet.macroEnabled.12',
      'application/vnd.ms-excel.template.macroEnabled.12',
    ],
  },
  powerpoint: {
    extensions: ['.pptx', '.pptm', '.ppsx', '.potx'],
    mimeTypes: [
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
      'application/vnd.openxmlformats-officedocument.presentationml.template',
      'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
    ],
  },
  openDocument: {
    extensions: ['.odt', '.ods', '.odp'],
    mimeTypes: [
      'application/vnd.oasis.opendocument.text',
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/vnd.oasis.opendocument.presentation',
    ],
  },
  numbers: {
    extensions: ['.numbers'],
    mimeTypes: ['application/vnd.apple.numbers', 'application/x-iwork-numbers-sffnumbers'],
  },
  csv: { extensions: ['.csv'], mimeTypes: ['text/csv'] },
  tsv: { extensions: ['.tsv'], mimeTypes: ['text/tab-separated-values'] },
  html: { extensions: ['.html', '.htm'], mimeTypes: ['text/html'] },
  text: { extensions: ['.txt', '.md'], mimeTypes: ['text/plain', 'text/markdown'] },
};

/**
 * Upload requests one member may send a minute (counted by each server instance). The app sends one request per
 * drop of up to 50 files, so this is far beyond what a person does and well short of a script hammering parsing.
 */
export const UPLOAD_REQUESTS_PER_MINUTE = 20;

/**
 * Bytes of files one member may have parsed in a day (a zip's documents count as inflated): five files of the
 * 1 GB maximum. What they stored in the last 24 hours counts against it.
 */
export const UPLOAD_BYTES_PER_DAY = 5 * 1024 * 1024 * 1024;

/**
 * Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069), which make 'exe.txt' read as
 * 'txt.exe', and every C0 and C1 control character, NUL included.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** An uploaded file's name as Scout keeps and shows it: without the characters above; 'file' when none remain. */
export function cleanUploadName(name: string): string {
  return name.replace(UNSAFE_NAME_CHARACTERS, '').trim() || 'file';
}

/** Lower-case, with the leading dot, as the file picker's `accept` and the drop check compare them. */
export const ACCEPTED_UPLOAD_EXTENSIONS: readonly string[] = Object.values(UPLOAD_TYPES).flatMap(
  (type) => type.extensions,
);

export const ACCEPTED_UPLOAD_MIME_TYPES: readonly string[] = Object.values(UPLOAD_TYPES).flatMap(
  (type) => type.mimeTypes,
);

export const ACCEPTED_ZIP_EXTENSIONS: readonly string[] = ['.zip'];

export const ACCEPTED_ZIP_MIME_TYPES: readonly string[] = [
  'application/zip',
  'application/x-zip-compressed',
  'application/x-zip',
];

/** '.docx' for 'Plan.DOCX'; '' when the name has no extension. */
export function uploadExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/**
 * Whether a dropped file is one of the accepted document types. The extension decides when there is one: browsers
 * report no MIME type, or a generic one, for many of these files.
 */
export function isAcceptedUpload(file: { name: string; type?: string }): boolean {
  const extension = uploadExtension(file.name);
  if (extension) return ACCEPTED_UPLOAD_EXTENSIONS.includes(extension);
  return includesMimeType(ACCEPTED_UPLOAD_MIME_TYPES, file.type);
}

export function isZipUpload(file: { name: string; type?: string }): boolean {
  const extension = uploadExtension(file.name);
  if (extension) return ACCEPTED_ZIP_EXTENSIONS.includes(extension);
  return includesMimeType(ACCEPTED_ZIP_MIME_TYPES, file.type);
}

/** MIME types compare without case (RFC 2045); parameters such as '; charset=…' are ignored. */
function includesMimeType(list: readonly string[], mimeType: string | undefined): boolean {
  const bare = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return bare !== '' && list.some((type) => type.toLowerCase() === bare);
}
