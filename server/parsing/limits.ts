// The bounds every parse runs within, so a hostile or merely enormous file costs a known amount of time and
// memory: bytes in, bytes an archive may expand to, characters out, and wall-clock time.
import { UPLOAD_MAX_FILE_BYTES } from '../../common/limits';
import { ParseTimeoutError } from './errors';
import type { ZipEntry, ZipLimits } from './zip';

const MB = 1024 * 1024;

/** With the archive limits of zip.ts: total expanded size (default 256 MB) and entries (default 10,000). */
export interface ParseLimits extends ZipLimits {
  /** Largest input accepted. Default: the upload limit, 1 GB. */
  maxBytes: number;
  /**
   * Characters of text kept; the rest is dropped with a warning. Default 1,000,000: about 250,000 tokens, a
   * 500-page book. Every statement that carries a document's whole text (its upload row, its document row) holds
   * the embedded store's thread for ~50 ms at this size and proportionally longer past it, and nobody reads
   * answers from page 2,000 of one file; the rest of a longer file is not searchable.
   */
  maxChars: number;
  /** Wall-clock time for one parse. Default 60 s. */
  timeoutMs: number;
}

export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = {
  maxBytes: UPLOAD_MAX_FILE_BYTES,
  maxUncompressedBytes: 256 * MB,
  maxArchiveEntries: 10_000,
  maxChars: 1_000_000,
  timeoutMs: 60_000,
};

/** What each format's parser is handed. */
export interface ParseContext {
  readonly bytes: Uint8Array;
  readonly limits: ParseLimits;
  /** Aborted when the time limit passes (or the caller gives up); long loops check it. */
  readonly signal: AbortSignal;
  readonly warnings: string[];
  /** The archive's checked entries, for the ZIP-based formats. */
  readonly zipEntries?: readonly ZipEntry[];
}

/** What each format's parser returns; the entry point adds the file type, the title fallback and the checks. */
export interface FormatResult {
  title?: string;
  text: string;
  pages?: number;
  /** The parser stopped at the character budget: more text was there. */
  truncated?: boolean;
}

/**
 * Runs `work` with a signal that aborts after `timeoutMs` (or when `outer` aborts), and settles as soon as the
 * signal fires even if `work` is stuck inside a library call that cannot be interrupted.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ParseTimeoutError(timeoutMs)), timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    return await raceAbort(controller.signal, work(controller.signal));
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/**
 * Text built piece by piece up to a character budget. Parsers stop producing once it is full, so a million-row
 * sheet costs the budget, not the sheet.
 */
export class TextBudget {
  readonly #parts: string[] = [];
  #length = 0;
  #truncated = false;

  constructor(readonly maxChars: number) {}

  get full(): boolean {
    return this.#truncated;
  }

  get length(): number {
    return this.#length;
  }

  /** Appends `text`, cut at the budget; false once the budget is spent. */
  push(text: string): boolean {
    if (this.#truncated) return false;
    const room = this.maxChars - this.#length;
    if (text.length > room) {
      this.#parts.push(text.slice(0, room));
      this.#length = this.maxChars;
      this.#truncated = true;
      return false;
    }
    this.#parts.push(text);
    this.#length += text.length;
    return true;
  }

  toString(): string {
    return this.#parts.join('');
  }
}

export function truncationWarning(maxChars: number): string {
  return `Only the first ${maxChars.toLocaleString('en-US')} characters were kept.`;
}
