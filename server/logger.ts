import { pino, stdSerializers, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line: tokens, credentials and secrets of every shape we handle. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.secret',
  '*.client_secret',
  '*.api_key',
  '*.token',
  '*.id_token',
  '*.refresh_token',
  '*.credentials',
];

/** What a database error may say in a log: where it happened and why, never a value it was given. */
const SAFE_DATABASE_FIELDS = [
  'code',
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'constraint',
  'dataType',
];

type ErrorFields = Error & Record<string, unknown>;

/**
 * drizzle's DrizzleQueryError carries `query` and `params` (and puts the params in its message); PGlite's errors
 * add `query`, `params` and `queryOptions`; pg's DatabaseError has `severity` and `routine`, and its message and
 * `detail` quote the offending value. Any of them can hold a document's body, its ACL or a token.
 */
function isDatabaseError(error: ErrorFields): boolean {
  return ['params', 'parameters', 'query', 'queryOptions'].some((key) => key in error) || 'routine' in error;
}

/** Frames only: the stack's first lines repeat the message. */
const framesOf = (stack: string | undefined) =>
  (stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');

/** An error of the same class (so the log names its type) holding only `fields`. */
const errorLike = (error: Error, fields: Record<string, unknown>) =>
  Object.assign(Object.create(Object.getPrototypeOf(error) as object) as ErrorFields, fields);

function withoutQueryData(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  const fields = error as ErrorFields;
  const cause = withoutQueryData(fields.cause, depth + 1);
  if (!isDatabaseError(fields)) {
    if (cause === fields.cause) return error;
    return errorLike(error, { ...fields, message: error.message, stack: error.stack, cause });
  }
  // drizzle's message repeats the params; a database's quotes the value it refused ('for type integer: "x"').
  const message =
    'params' in fields && 'cause' in fields ? 'Failed query' : error.message.replace(/"[^"]*"/g, '"…"');
  const safe: Record<string, unknown> = {
    message,
    stack: `${error.name}: ${message}\n${framesOf(error.stack)}`,
    cause,
  };
  // pino prints only the message and stack of a cause: the SQLSTATE of a wrapped error is lifted to the wrapper.
  const wrapped = (fields.cause instanceof Error ? fields.cause : {}) as Record<string, unknown>;
  for (const key of SAFE_DATABASE_FIELDS) {
    const value = fields[key] ?? wrapped[key];
    if (value !== undefined) safe[key] = value;
  }
  return errorLike(error, safe);
}

/** pino's error serializer, after the query data of database errors (anywhere in the cause chain) is dropped. */
export const serializeError = (error: unknown) => stdSerializers.err(withoutQueryData(error) as Error);

export function loggerOptions(level: LoggerOptions['level']): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
}

export function createLogger(level: LoggerOptions['level'] = 'info'): Logger {
  return pino(loggerOptions(level));
}
