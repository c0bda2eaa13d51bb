import type { ErrorCode } from '../common/errors';

/**
 * The one error a handler throws on purpose. The error handler turns it into `{ code, message }` with its status;
 * anything else that escapes a handler is a bug and answers a generic 500 without details.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'BAD_REQUEST') =>
  new ApiError(400, code, message);
export const unauthorized = (message = 'Sign in to continue.') => new ApiError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do this.', code: ErrorCode = 'FORBIDDEN') =>
  new ApiError(403, code, message);
export const notFound = (message = 'Not found.') => new ApiError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);
