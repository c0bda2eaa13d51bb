// What parsing a file can fail with. Callers branch on the class, never on message text; `code` is the API error
// code an upload route answers with. Messages are safe to show: they never quote file contents.
import { ErrorCode } from '../../common/errors';
import { files } from '../../common/strings';

export abstract class ParseError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The file has no text, or it could not be read at all (the spec's 400 'No content was parsed from the file.'
 * covers both). `reason`, when set, says which for the log.
 */
export class NoContentError extends ParseError {
  readonly code = ErrorCode.BAD_REQUEST;

  constructor(
    readonly reason?: string,
    options?: { cause?: unknown },
  ) {
    super(files.NO_CONTENT_PARSED, options);
  }
}

/** A damaged or truncated file, or one whose structure contradicts itself. */
export class CorruptFileError extends NoContentError {}

/** A type Scout does not read (legacy binary Office, images, archives, executables…). */
export class UnsupportedFileError extends ParseError {
  readonly code = ErrorCode.UNSUPPORTED_MEDIA_TYPE;
}

/** The file, or what it expands to, is over a parsing limit (bytes, archive entries, expanded size). */
export class FileTooLargeError extends ParseError {
  readonly code = ErrorCode.PAYLOAD_TOO_LARGE;
}

/** Parsing took longer than its time limit and was abandoned. */
export class ParseTimeoutError extends ParseError {
  readonly code = ErrorCode.BAD_REQUEST;

  constructor(readonly timeoutMs: number) {
    super(`The file took longer than ${Number((timeoutMs / 1000).toFixed(2))} s to read.`);
  }
}
