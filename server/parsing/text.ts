// Plain text: UTF-8 (with or without a byte-order mark), UTF-16 with a byte-order mark, and anything that is not
// valid UTF-8 read as Windows-1252, the superset of Latin-1 that such files are in practice.
import type { FormatResult, ParseContext } from './limits';

export interface DecodedText {
  text: string;
  /** The input was longer than the character budget allows and only its start was decoded. */
  truncated: boolean;
  /** Set when the bytes were not UTF-8 and were read as Windows-1252. */
  fellBackToLatin1: boolean;
}

export const LATIN1_WARNING = 'The file is not valid UTF-8; it was read as Latin-1 (Windows-1252).';

/**
 * Decodes at most what `maxChars` characters can take (4 bytes each in UTF-8), so a 1 GB log costs the budget.
 * `declaredCharset` (an HTML page's <meta charset>) wins over the fallback when the runtime knows it.
 */
export function decodeText(bytes: Uint8Array, maxChars: number, declaredCharset?: string): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeWith('utf-16le', bytes.subarray(2), maxChars * 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeWith('utf-16be', bytes.subarray(2), maxChars * 2);
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const charset = declaredCharset?.trim().toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8' && isKnownEncoding(charset)) {
    return decodeWith(charset, body, maxChars * 4);
  }
  const limit = utf8Boundary(body, maxChars * 4);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(0, limit));
    return { text, truncated: limit < body.length, fellBackToLatin1: false };
  } catch {
    const end = Math.min(body.length, maxChars);
    return {
      text: decodeWindows1252(body.subarray(0, end)),
      truncated: end < body.length,
      fellBackToLatin1: true,
    };
  }
}

/**
 * Windows-1252 differs from Latin-1 in 0x80–0x9F (€, curly quotes, dashes…), and Node 20's TextDecoder decodes it
 * as Latin-1; these are the characters of that range, in order (the five unassigned bytes stand for themselves).
 */
const WINDOWS_1252_80_TO_9F = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

export function decodeWindows1252(bytes: Uint8Array): string {
  return new TextDecoder('latin1')
    .decode(bytes)
    .replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_80_TO_9F[char.charCodeAt(0) - 0x80]!);
}

export function parseText(context: ParseContext): FormatResult {
  const decoded = decodeText(context.bytes, context.limits.maxChars);
  if (decoded.fellBackToLatin1) context.warnings.push(LATIN1_WARNING);
  return { text: decoded.text, truncated: decoded.truncated };
}

function decodeWith(encoding: string, bytes: Uint8Array, maxBytes: number): DecodedText {
  const end = Math.min(bytes.length, maxBytes);
  const slice = bytes.subarray(0, end);
  const text = isWindows1252(encoding) ? decodeWindows1252(slice) : new TextDecoder(encoding).decode(slice);
  return { text, truncated: end < bytes.length, fellBackToLatin1: false };
}

/** The largest cut at or below `limit` that does not split a UTF-8 sequence. */
function utf8Boundary(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return bytes.length;
  let cut = limit;
  // back up over continuation bytes (10xxxxxx) to the start of the character the cut would split
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  return cut;
}

/** The labels the Encoding Standard maps to windows-1252 (latin1 and iso-8859-1 among them). */
function isWindows1252(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === 'windows-1252';
  } catch {
    return false;
  }
}

function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}
