// Typed API errors (spec shell-and-account §7.7): callers branch on the class, never on status numbers
// scattered through screens.

/** Base of every error the API client throws, so one `instanceof` tells API failures from bugs. */
export class ApiError extends Error {
  override name = 'ApiError';
}

/** The request never got an answer: offline, DNS, connection reset, or our own time-out. */
export class NetworkError extends ApiError {
  override name = 'NetworkError';
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 404. Expected in normal use (unknown path, deleted item), so it is never reported. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** 400 with the server's code, which screens map to their own wording. */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Any other non-2xx answer. */
export class RequestError extends ApiError {
  override name = 'RequestError';
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A 2xx answer whose body does not match the contract in common/: a server/client version skew. */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof RequestError && error.status === 401;
}

/** The HTTP status of an API error, or null when there was no answer (network) or it is not an API error. */
export function statusOf(error: unknown): number | null {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof BadRequestError) return 400;
  if (error instanceof RequestError) return error.status;
  return null;
}

/** The message the server put in an error answer; null for network failures and anything else. */
export function serverMessageOf(error: unknown): string | null {
  return statusOf(error) === null ? null : (error as Error).message;
}
