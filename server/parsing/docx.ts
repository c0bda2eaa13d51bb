// Word documents through mammoth, which maps Word's styles to HTML (Heading 1 → <h1>, lists, tables); the HTML
// then goes through the same reader as web pages, so headings survive as '#' lines for the chunker. Images are
// dropped before they are read, and mammoth never follows links to files outside the document.
import mammoth from 'mammoth';
import { htmlToDocument } from '../../connectors/sdk/html';
import { CorruptFileError } from './errors';
import { raceAbort, type FormatResult, type ParseContext } from './limits';
import { findEntry, readZipEntry } from './zip';

/** mammoth's messages are mostly unmapped style names: a few are worth a warning, hundreds are not. */
const MAX_CONVERTER_WARNINGS = 5;

export async function parseDocx(context: ParseContext): Promise<FormatResult> {
  const buffer = Buffer.from(context.bytes.buffer, context.bytes.byteOffset, context.bytes.byteLength);
  const result = await raceAbort(
    context.signal,
    mammoth
      .convertToHtml(
        { buffer },
        {
          convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
          externalFileAccess: false,
          ignoreEmptyParagraphs: true,
        },
      )
      .catch((error: unknown) => {
        throw new CorruptFileError(`docx: ${(error as Error).message}`, { cause: error });
      }),
  );
  for (const message of result.messages.filter((m) => m.type === 'error').slice(0, MAX_CONVERTER_WARNINGS)) {
    context.warnings.push(`Part of the document could not be read: ${message.message}`);
  }
  const page = htmlToDocument(result.value);
  return { title: coreTitle(context), text: page.text };
}

/** The title in the package's core properties (File › Properties in Word), when someone set one. */
function coreTitle(context: ParseContext): string | undefined {
  const entry = context.zipEntries && findEntry(context.zipEntries, 'docProps/core.xml');
  if (!entry) return undefined;
  const xml = new TextDecoder().decode(readZipEntry(context.bytes, entry));
  const title = /<dc:title>([^<]*)<\/dc:title>/.exec(xml)?.[1];
  return title === undefined ? undefined : decodeXmlEntities(title).trim();
}

function decodeXmlEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return named[name] ?? entity;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
