// HTML uploads read the way the website crawler reads pages (connectors/sdk/html.ts), in the charset the page
// declares when it is not UTF-8.
import { htmlToDocument } from '../../connectors/sdk/html';
import type { FormatResult, ParseContext } from './limits';
import { LATIN1_WARNING, decodeText } from './text';

export function parseHtml(context: ParseContext): FormatResult {
  const decoded = decodeText(context.bytes, context.limits.maxChars, declaredCharset(context.bytes));
  if (decoded.fellBackToLatin1) context.warnings.push(LATIN1_WARNING);
  const page = htmlToDocument(decoded.text);
  return { title: page.title, text: page.text, truncated: decoded.truncated };
}

/** `<meta charset="…">` or its http-equiv form, in the first 1024 bytes as the HTML standard prescribes. */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 1024));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
