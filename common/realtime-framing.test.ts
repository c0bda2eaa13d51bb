import { describe, expect, it } from 'vitest';
import { REALTIME_CHUNK_BYTES } from './limits';
import {
  MESSAGES_IN_PIECES_MAX,
  PIECES_WAIT_MS,
  Reassembler,
  splitUtf8,
  utf8Length,
  type Piece,
} from './realtime-framing';

function piecesOf(id: string, text: string, maxBytes: number): Piece[] {
  const parts = splitUtf8(text, maxBytes);
  return parts.map((data, index) => ({ id, index, count: parts.length, data }));
}

describe('splitUtf8', () => {
  it('keeps a text under the limit whole, and cuts one at the limit into pieces of at most the limit', () => {
    const under = 'a'.repeat(REALTIME_CHUNK_BYTES - 1);
    expect(splitUtf8(under, REALTIME_CHUNK_BYTES)).toEqual([under]);
    const exactly = 'a'.repeat(REALTIME_CHUNK_BYTES);
    expect(splitUtf8(exactly, REALTIME_CHUNK_BYTES)).toEqual([exactly]);
    const over = 'a'.repeat(REALTIME_CHUNK_BYTES + 1);
    const pieces = splitUtf8(over, REALTIME_CHUNK_BYTES);
    expect(pieces.map((piece) => piece.length)).toEqual([REALTIME_CHUNK_BYTES, 1]);
  });

  it('counts bytes, not characters, and never cuts a character in two', () => {
    // 3-byte and 4-byte (surrogate pair) characters straddling the boundaries
    const text = 'é€😀'.repeat(20_000);
    expect(utf8Length(text)).toBe(20_000 * (2 + 3 + 4));
    const pieces = splitUtf8(text, REALTIME_CHUNK_BYTES);
    expect(pieces.length).toBe(Math.ceil(utf8Length(text) / REALTIME_CHUNK_BYTES));
    for (const piece of pieces) {
      expect(utf8Length(piece)).toBeLessThanOrEqual(REALTIME_CHUNK_BYTES);
      expect(Buffer.byteLength(piece)).toBe(utf8Length(piece));
      // no lone surrogate at either end
      expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
    }
    expect(pieces.join('')).toBe(text);
  });

  it('refuses a limit that cannot hold a character', () => {
    expect(() => splitUtf8('abc', 3)).toThrow();
  });
});

describe('Reassembler', () => {
  it('joins pieces in index order whatever order they arrive in', () => {
    const text = JSON.stringify({ type: 'EVENT', text: 'x'.repeat(3 * REALTIME_CHUNK_BYTES + 17) });
    const pieces = piecesOf('m1', text, REALTIME_CHUNK_BYTES);
    expect(pieces.length).toBe(4);
    const reassembler = new Reassembler();
    const shuffled = [pieces[2]!, pieces[0]!, pieces[3]!, pieces[1]!];
    const results = shuffled.map((piece) => reassembler.add(piece));
    expect(results.slice(0, 3)).toEqual([null, null, null]);
    expect(results[3]).toBe(text);
    expect(reassembler.pending).toBe(0);
  });

  it('keeps two messages apart by id', () => {
    const reassembler = new Reassembler();
    const a = piecesOf('a', 'A'.repeat(10), 4);
    const b = piecesOf('b', 'B'.repeat(10), 4);
    expect(reassembler.add(a[0]!)).toBeNull();
    expect(reassembler.add(b[0]!)).toBeNull();
    expect(reassembler.add(b[1]!)).toBeNull();
    expect(reassembler.add(a[1]!)).toBeNull();
    expect(reassembler.add(a[2]!)).toBe('A'.repeat(10));
    expect(reassembler.add(b[2]!)).toBe('B'.repeat(10));
  });

  it('ignores a repeated piece, an index out of range and a count that disagrees', () => {
    const reassembler = new Reassembler();
    const [first, second] = piecesOf('m', 'abcdefgh', 4);
    expect(reassembler.add(first!)).toBeNull();
    expect(reassembler.add({ ...first!, data: 'zzzz' })).toBeNull();
    expect(reassembler.add({ ...second!, index: 2 })).toBeNull();
    expect(reassembler.add({ ...second!, count: 3 })).toBeNull();
    expect(reassembler.add({ ...second!, index: -1 })).toBeNull();
    expect(reassembler.add(second!)).toBe('abcdefgh');
  });

  it('lets go of a message whose pieces stopped coming, and of more partial messages than it holds', () => {
    let now = 0;
    const reassembler = new Reassembler(() => now);
    const [first, second] = piecesOf('late', 'abcdefgh', 4);
    reassembler.add(first!);
    now += PIECES_WAIT_MS + 1;
    // the first piece is gone: the second alone cannot complete it
    expect(reassembler.add(second!)).toBeNull();
    expect(reassembler.pending).toBe(1);

    const crowded = new Reassembler();
    for (let i = 0; i < MESSAGES_IN_PIECES_MAX; i++)
      crowded.add({ id: `m${i}`, index: 0, count: 2, data: 'x' });
    expect(crowded.add({ id: 'extra', index: 0, count: 2, data: 'x' })).toBeNull();
    expect(crowded.add({ id: 'extra', index: 1, count: 2, data: 'y' })).toBeNull();
    expect(crowded.add({ id: 'm0', index: 1, count: 2, data: 'y' })).toBe('xy');
  });
});
