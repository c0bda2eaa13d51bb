import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CorruptFileError, FileTooLargeError, UnsupportedFileError } from './errors';
import { checkArchive, findEntry, looksLikeZip, readZipDirectory, readZipEntry } from './zip';

const LIMITS = { maxUncompressedBytes: 1024 * 1024, maxArchiveEntries: 100 };
const sample = () =>
  zipSync({
    'a.txt': [strToU8('stored text'), { level: 0 }],
    'dir/b.xml': strToU8('<b>' + 'deflated '.repeat(100) + '</b>'),
  });

/** Offset of the central directory entry for `name`. */
function centralHeader(zip: Uint8Array, name: string): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let at = view.getUint32(zip.length - 22 + 16, true);
  for (;;) {
    const length = view.getUint16(at + 28, true);
    if (new TextDecoder().decode(zip.subarray(at + 46, at + 46 + length)) === name) return at;
    at += 46 + length + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
}

describe('zip', () => {
  it('recognises a ZIP by its first bytes', () => {
    expect(looksLikeZip(sample())).toBe(true);
    expect(looksLikeZip(zipSync({}))).toBe(true);
    expect(looksLikeZip(strToU8('PK but text'))).toBe(false);
  });

  it('lists entries from the central directory and reads stored and deflated ones', () => {
    const zip = sample();
    const entries = readZipDirectory(zip, 10);
    expect(entries.map(({ name, method, size }) => ({ name, method, size }))).toEqual([
      { name: 'a.txt', method: 0, size: 11 },
      { name: 'dir/b.xml', method: 8, size: 907 },
    ]);
    expect(new TextDecoder().decode(readZipEntry(zip, findEntry(entries, 'a.txt')!))).toBe('stored text');
    expect(new TextDecoder().decode(readZipEntry(zip, findEntry(entries, 'dir/b.xml')!))).toMatch(
      /^<b>deflated /,
    );
  });

  it('reads ZIP64 sizes and offsets from the extra field', () => {
    const zip = sample();
    const at = centralHeader(zip, 'a.txt');
    const view = new DataView(zip.buffer);
    const [size, compressed, offset] = [
      view.getUint32(at + 24, true),
      view.getUint32(at + 20, true),
      view.getUint32(at + 42, true),
    ];
    // rebuild the directory entry with its three 32-bit fields moved to a ZIP64 extra field
    const extra = new Uint8Array(28);
    const extraView = new DataView(extra.buffer);
    extraView.setUint16(0, 0x0001, true);
    extraView.setUint16(2, 24, true);
    extraView.setUint32(4, size, true);
    extraView.setUint32(12, compressed, true);
    extraView.setUint32(20, offset, true);
    const nameLength = view.getUint16(at + 28, true);
    const headerEnd = at + 46 + nameLength;
    const patched = new Uint8Array(zip.length + extra.length);
    patched.set(zip.subarray(0, headerEnd));
    patched.set(extra, headerEnd);
    patched.set(zip.subarray(headerEnd), headerEnd + extra.length);
    const out = new DataView(patched.buffer);
    for (const field of [20, 24, 42]) out.setUint32(at + field, 0xffffffff, true);
    out.setUint16(at + 30, extra.length, true);
    const end = patched.length - 22;
    out.setUint32(end + 12, out.getUint32(end + 12, true) + extra.length, true);

    const entry = findEntry(readZipDirectory(patched, 10), 'a.txt')!;
    expect(entry).toMatchObject({ size, compressedSize: compressed, localHeaderOffset: offset });
    expect(new TextDecoder().decode(readZipEntry(patched, entry))).toBe('stored text');
  });

  it('refuses archives with more entries than allowed, or that admit expanding past the limit', () => {
    expect(() => readZipDirectory(sample(), 1)).toThrow(FileTooLargeError);
    expect(() => checkArchive(sample(), { ...LIMITS, maxUncompressedBytes: 500 })).toThrow(
      new FileTooLargeError('The file expands to more than 0 MB.'),
    );
  });

  it('refuses an entry that inflates beyond its declared size', () => {
    const zip = sample();
    new DataView(zip.buffer).setUint32(centralHeader(zip, 'dir/b.xml') + 24, 100, true);
    expect(() => checkArchive(zip, LIMITS)).toThrow(
      new FileTooLargeError('An archive entry expands beyond the size it declares.'),
    );
  });

  it('refuses encrypted entries and compression methods other than store and deflate', () => {
    const encrypted = sample();
    const view = new DataView(encrypted.buffer);
    view.setUint16(centralHeader(encrypted, 'a.txt') + 8, 1, true);
    expect(() => checkArchive(encrypted, LIMITS)).toThrow(
      new UnsupportedFileError('Password-protected files cannot be read.'),
    );
    const bzip2 = sample();
    new DataView(bzip2.buffer).setUint16(centralHeader(bzip2, 'dir/b.xml') + 10, 12, true);
    expect(() => checkArchive(bzip2, LIMITS)).toThrow(UnsupportedFileError);
  });

  it('reports truncated and garbled archives as corrupt', () => {
    const zip = sample();
    expect(() => readZipDirectory(zip.subarray(0, zip.length - 30), 10)).toThrow(CorruptFileError);
    expect(() => readZipDirectory(zip.subarray(0, 10), 10)).toThrow(CorruptFileError);
    const garbled = sample();
    const entry = findEntry(readZipDirectory(garbled, 10), 'dir/b.xml')!;
    // a deflate stream starting with 0xff opens a block of the reserved type 3
    const data = entry.localHeaderOffset + 30 + 'dir/b.xml'.length;
    garbled.fill(0xff, data, data + 8);
    expect(() => checkArchive(garbled, LIMITS)).toThrow(CorruptFileError);
  });
});
