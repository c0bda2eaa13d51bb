// The API's error contract (spec shell-and-account §7.7): every non-2xx answer carries `{ code, message }`,
// and an unknown path answers the spec's own 404 body. Codes are stable identifiers the app branches on;
// messages are for people.
import { z } from 'zod';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'INVALID_CREDENTIALS',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'ADMIN_REQUIRED',
  'PLAN_REQUIRED',
  'FEATURE_DISABLED',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'APP_PERMISSION_MISMATCH',
  'INTERNAL',
  'NOT_IMPLEMENTED',
  'UPSTREAM_FAILED',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorCode = Object.fromEntries(ERROR_CODES.map((code) => [code, code])) as {
  readonly [C in ErrorCode]: C;
};

/** The status each code is sent with, so a handler names only the code. */
export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  // A vendor rejected the credentials given to connect an app; not the caller's session (that is 401).
  INVALID_CREDENTIALS: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ADMIN_REQUIRED: 403,
  // 402, not 403: the app answers a 403 by refreshing its token and retrying, which cannot buy a plan.
  // 403 as the identity issue asks; the code, not the status, tells the client it is about the plan.
  PLAN_REQUIRED: 403,
  // A feature flag of the org is off (spec §6): an operator or admin can switch it on; retrying cannot.
  FEATURE_DISABLED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  // A 400 so the app's bad-request path shows 'Failed to install {app}: {message}'.
  APP_PERMISSION_MISMATCH: 400,
  INTERNAL: 500,
  // e.g. the SSO provider lookup for an organisation without SSO ('SSO not supported for this organization').
  NOT_IMPLEMENTED: 501,
  UPSTREAM_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
};

export const errorCodeSchema = z.enum(ERROR_CODES);

export const errorBodySchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const NOT_FOUND_MESSAGE = '404 NOT found';

/** The spec's 404 body. The app does not report a 404 to the error service. */
export const notFoundBodySchema = z.object({ message: z.literal(NOT_FOUND_MESSAGE) });
export type NotFoundBody = z.infer<typeof notFoundBodySchema>;

/** Exactly the spec's body (shell-and-account §7.7): the client recognises an unknown path by its message. */
export const NOT_FOUND_BODY: NotFoundBody = Object.freeze({ message: NOT_FOUND_MESSAGE });

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { code, message };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Reads an error body leniently: a body from an older or newer server with an unknown code still has a message. */
export function parseErrorBody(body: unknown): { code: ErrorCode | null; message: string } | null {
  if (typeof body !== 'object' || body === null) return null;
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return null;
  return { code: isErrorCode(code) ? code : null, message };
}
