// Uploaded images arrive as base64 data URLs (logos, photos, backgrounds). The declared type is only a claim: the
// bytes' own header decides the format and the size, so a "PNG" that is not one, or a logo that is not square,
// is refused. Only headers are read; no image library is needed for that.

export type ImageFormat = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
export type ImageInfo = { mimeType: ImageFormat; width: number; height: number; bytes: Buffer };

export type ImageRejection = 'not-an-image' | 'too-large';

const DATA_URL = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

/** The bytes and type of a base64 data URL, or null when it is not one. */
export function decodeDataUrl(dataUrl: string): { mimeType: string; bytes: Buffer } | null {
  const match = DATA_URL.exec(dataUrl);
  if (!match?.[1] || match[2] === undefined) return null;
  return { mimeType: match[1].toLowerCase(), bytes: Buffer.from(match[2], 'base64') };
}

/**
 * Reads an image data URL: its decoded bytes must be at most `maxBytes`, of one of `allowed` types, and the header of
 * that type must be readable and agree with the declared type.
 */
export function readImageDataUrl(
  dataUrl: string,
  options: { maxBytes: number; allowed: readonly ImageFormat[] },
): ImageInfo | ImageRejection {
  const decoded = decodeDataUrl(dataUrl);
  if (!decoded) return 'not-an-image';
  if (decoded.bytes.length > options.maxBytes) return 'too-large';
  const size = imageSize(decoded.bytes);
  if (!size || !options.allowed.includes(size.mimeType)) return 'not-an-image';
  const declared = decoded.mimeType === 'image/jpg' ? 'image/jpeg' : decoded.mimeType;
  if (declared !== size.mimeType) return 'not-an-image';
  return { ...size, bytes: decoded.bytes };
}

/** Width and height from a PNG, JPEG, WebP or GIF header; null for anything else or a truncated header. */
export function imageSize(bytes: Buffer): { mimeType: ImageFormat; width: number; height: number } | null {
  if (isPng(bytes)) return pngSize(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return jpegSize(bytes);
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
    return webpSize(bytes);
  if (bytes.length >= 10 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) {
    return sized('image/gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  }
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function isPng(bytes: Buffer): boolean {
  return bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

function pngSize(bytes: Buffer) {
  // The first chunk must be IHDR: length (4), type (4), width (4), height (4).
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return null;
  return sized('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Buffer) {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    // Markers without a length: TEM and RSTn. SOS or EOI before a frame header means no size to read.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    const length = bytes.readUInt16BE(offset + 2);
    if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) return null;
      return sized('image/jpeg', bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5));
    }
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

function webpSize(bytes: Buffer) {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ' && bytes.length >= 30) {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return sized('image/webp', bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L' && bytes.length >= 25) {
    // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each.
    if (bytes[20] !== 0x2f) return null;
    const bits = bytes.readUInt32LE(21);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && bytes.length >= 30) {
    // Extended: the canvas width-1 and height-1 in 24 bits each.
    return sized('image/webp', bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1);
  }
  return null;
}

function sized(mimeType: ImageFormat, width: number, height: number) {
  return width > 0 && height > 0 ? { mimeType, width, height } : null;
}

function ascii(bytes: Buffer, start: number, length: number): string {
  return bytes.toString('latin1', start, start + length);
}
