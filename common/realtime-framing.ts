// Splitting a long text into pieces of at most so many UTF-8 bytes, and joining them again by index (spec
// shell-and-account §7.6: a realtime message under 50 KB goes whole, a longer one in 50 KB chunks reassembled by
// index). The realtime socket frames its messages with it, and the server carries events between instances through
// PostgreSQL NOTIFY (8000-byte payloads) with it too.

/** UTF-8 length of one code point. */
function utf8Bytes(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) bytes += utf8Bytes(char.codePointAt(0)!);
  return bytes;
}

/**
 * The text in pieces of at most `maxBytes` UTF-8 bytes each, never cutting a character in two; one piece when it
 * fits. `maxBytes` must hold the widest character (4).
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  if (maxBytes < 4) throw new Error('a piece must hold at least one character (4 bytes)');
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  let index = 0;
  for (const char of text) {
    const size = utf8Bytes(char.codePointAt(0)!);
    if (bytes + size > maxBytes) {
      pieces.push(text.slice(start, index));
      start = index;
      bytes = 0;
    }
    bytes += size;
    index += char.length;
  }
  pieces.push(text.slice(start));
  return pieces;
}

export type Piece = { id: string; index: number; count: number; data: string };

/** Ours: pieces of one message wait this long for the rest; a message cut short by a dropped link is let go. */
export const PIECES_WAIT_MS = 60_000;
/** Ours: at most this many pieces to a message (50 MB of 50 KB pieces), so a bad count cannot hold memory. */
export const PIECES_PER_MESSAGE_MAX = 1000;
/** Ours: at most this many messages being reassembled at once from one sender. */
export const MESSAGES_IN_PIECES_MAX = 64;

type Partial = { count: number; parts: (string | undefined)[]; received: number; startedAt: number };

/**
 * Joins pieces by index, in whatever order they come. `add` answers the whole text once its last piece is in, and
 * null until then or for a piece that cannot belong (a count that disagrees, an index out of range, a repeat).
 */
export class Reassembler {
  private readonly partials = new Map<string, Partial>();

  constructor(private readonly now: () => number = Date.now) {}

  add(piece: Piece): string | null {
    this.forgetStale();
    if (piece.count < 1 || piece.count > PIECES_PER_MESSAGE_MAX) return null;
    if (piece.index < 0 || piece.index >= piece.count) return null;
    let partial = this.partials.get(piece.id);
    if (!partial) {
      if (this.partials.size >= MESSAGES_IN_PIECES_MAX) return null;
      partial = { count: piece.count, parts: [], received: 0, startedAt: this.now() };
      this.partials.set(piece.id, partial);
    }
    if (partial.count !== piece.count || partial.parts[piece.index] !== undefined) return null;
    partial.parts[piece.index] = piece.data;
    partial.received += 1;
    if (partial.received < partial.count) return null;
    this.partials.delete(piece.id);
    return partial.parts.join('');
  }

  /** Messages still waiting for pieces. */
  get pending(): number {
    return this.partials.size;
  }

  private forgetStale(): void {
    const cutoff = this.now() - PIECES_WAIT_MS;
    for (const [id, partial] of this.partials) if (partial.startedAt < cutoff) this.partials.delete(id);
  }
}
