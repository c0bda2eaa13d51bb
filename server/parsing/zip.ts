// Reading ZIP archives (OOXML, OpenDocument and Numbers files are ZIPs) without trusting them. The central
// directory is read first, so a bomb that admits its size is refused before a byte is inflated; then every entry
// is inflated once with its declared size as a hard cap (zlib's maxOutputLength), so a bomb that lies about its
// size is caught the moment it overflows. Only after that do the parsing libraries, which inflate without caps,
// see the file. Nested archives are never opened.
import { inflateRawSync } from 'node:zlib';
import { CorruptFileError, FileTooLargeError, UnsupportedFileError } from './errors';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate; anything else is refused when read. */
  method: number;
  compressedSize: number;
  /** Declared uncompressed size. */
  size: number;
  localHeaderOffset: number;
  encrypted: boolean;
}

export interface ZipLimits {
  /** Total an archive-based file (DOCX, XLSX, PPTX, ODF, Numbers) may expand to. Default 256 MB. */
  maxUncompressedBytes: number;
  /** Entries an archive may hold. Default 10,000. */
  maxArchiveEntries: number;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
const MAX_COMMENT = 0xffff;
const MB = 1024 * 1024;

/** A ZIP's first four bytes: a local file header, or the end record of an empty archive. */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

/** The entries the central directory lists, without inflating anything. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfDirectory(view);
  let count = view.getUint16(end + 10, true);
  let directorySize = view.getUint32(end + 12, true);
  let directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) corrupt('missing ZIP64 locator');
    const zip64End = readUint64(view, locator + 8);
    if (zip64End + 56 > bytes.length || view.getUint32(zip64End, true) !== ZIP64_END_OF_DIRECTORY) {
      corrupt('bad ZIP64 end record');
    }
    count = readUint64(view, zip64End + 32);
    directorySize = readUint64(view, zip64End + 40);
    directoryOffset = readUint64(view, zip64End + 48);
  }
  if (count > maxEntries) {
    throw new FileTooLargeError(`The file holds ${count} archive entries; the limit is ${maxEntries}.`);
  }
  if (directoryOffset + directorySize > bytes.length) corrupt('central directory out of bounds');

  const names = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_HEADER) corrupt('bad central header');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > bytes.length) corrupt('central header out of bounds');
    // ZIP64: the fields that overflowed 32 bits follow in the extra field, in this order
    for (let extra = extraStart; extra + 4 <= extraStart + extraLength;) {
      const id = view.getUint16(extra, true);
      const length = view.getUint16(extra + 2, true);
      if (id === ZIP64_EXTRA) {
        let field = extra + 4;
        const take = () => {
          if (field + 8 > extra + 4 + length) corrupt('short ZIP64 extra field');
          const value = readUint64(view, field);
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
      }
      extra += 4 + length;
    }
    entries.push({
      name: names.decode(bytes.subarray(nameStart, extraStart)),
      method,
      compressedSize,
      size,
      localHeaderOffset,
      encrypted: (flags & 1) !== 0,
    });
    at = next;
  }
  return entries;
}

/**
 * The archive's entries once it is known to be safe to hand to a library: within the entry limit, expanding to
 * no more than the limit, and with every entry's real size no larger than it claims.
 */
export function checkArchive(
  bytes: Uint8Array,
  limits: ZipLimits,
  entries: readonly ZipEntry[] = readZipDirectory(bytes, limits.maxArchiveEntries),
): readonly ZipEntry[] {
  const declared = entries.reduce((total, entry) => total + entry.size, 0);
  if (declared > limits.maxUncompressedBytes) throw expandsTooFar(limits.maxUncompressedBytes);
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    readZipEntry(bytes, entry);
  }
  return entries;
}

/** One entry's bytes, inflated with its declared size as the cap. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  if (entry.encrypted) throw new UnsupportedFileError('Password-protected files cannot be read.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.localHeaderOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_HEADER)
    corrupt('bad local header');
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) corrupt('entry data out of bounds');
  const data = bytes.subarray(start, end);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) corrupt('stored entry with two sizes');
    return data;
  }
  if (entry.method !== 8) {
    throw new UnsupportedFileError('The file uses a compression method Scout cannot read.');
  }
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new FileTooLargeError('An archive entry expands beyond the size it declares.', { cause: error });
    }
    throw new CorruptFileError('entry does not inflate', { cause: error });
  }
}

export function findEntry(entries: readonly ZipEntry[], name: string): ZipEntry | undefined {
  return entries.find((entry) => entry.name === name);
}

function findEndOfDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      if (view.getUint16(at + 4, true) !== 0 || view.getUint16(at + 6, true) !== 0) {
        throw new UnsupportedFileError('Split (multi-part) archives cannot be read.');
      }
      return at;
    }
  }
  return corrupt('no end of central directory');
}

function readUint64(view: DataView, at: number): number {
  if (at + 8 > view.byteLength) corrupt('field out of bounds');
  const high = view.getUint32(at + 4, true);
  // anything past 2^53 is not a real offset or size in a file we could hold
  if (high >= 0x200000) corrupt('64-bit field out of range');
  return high * 0x100000000 + view.getUint32(at, true);
}

function expandsTooFar(limit: number): FileTooLargeError {
  return new FileTooLargeError(`The file expands to more than ${Math.round(limit / MB)} MB.`);
}

function corrupt(reason: string): never {
  throw new CorruptFileError(`zip: ${reason}`);
}
