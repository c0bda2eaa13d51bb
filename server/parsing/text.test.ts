import { describe, expect, it } from 'vitest';
import { decodeText, decodeWindows1252 } from './text';

const bytes = (...parts: Array<number[] | string>) =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)),
  );

describe('decodeText', () => {
  it('drops a UTF-8 byte-order mark', () => {
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], 'ok ✓'), 100)).toEqual({
      text: 'ok ✓',
      truncated: false,
      fellBackToLatin1: false,
    });
  });

  it('reads UTF-16 with either byte order when it starts with a byte-order mark', () => {
    expect(decodeText(Uint8Array.from([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x3a, 0x04]), 100).text).toBe('hiк');
    expect(decodeText(Uint8Array.from([0xfe, 0xff, 0, 0x68, 0, 0x69]), 100).text).toBe('hi');
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeText(bytes('na', [0xef], 've ', [0x93, 0x80, 0x94]), 100)).toEqual({
      text: 'naïve “€”',
      truncated: false,
      fellBackToLatin1: true,
    });
  });

  it('decodes only what the character budget can hold, never splitting a UTF-8 sequence', () => {
    // 3 characters may take up to 12 bytes; the cut lands inside the fourth 'é' and backs up to its start
    const decoded = decodeText(bytes('ééééééé'), 3);
    expect(decoded).toEqual({ text: 'éééééé', truncated: true, fellBackToLatin1: false });
  });

  it("uses the page's declared charset when it is not UTF-8", () => {
    expect(decodeText(Uint8Array.from([0xcf, 0xf0, 0xe8]), 100, 'windows-1251').text).toBe('При');
    expect(decodeText(Uint8Array.from([0xe9, 0x80]), 100, 'ISO-8859-1').text).toBe('é€');
    expect(decodeText(bytes('ok'), 100, 'no-such-charset').text).toBe('ok');
  });
});

describe('decodeWindows1252', () => {
  it('maps 0x80–0x9F to the characters Windows puts there, unlike Latin-1', () => {
    expect(decodeWindows1252(Uint8Array.from([0x80, 0x85, 0x8a, 0x91, 0x92, 0x99, 0x81, 0xff]))).toBe(
      '€…Š‘’™\u0081ÿ',
    );
  });
});
