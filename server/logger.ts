import { pino, type Logger, type LoggerOptions } from 'pino';

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

export function loggerOptions(level: LoggerOptions['level']): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

export function createLogger(level: LoggerOptions['level'] = 'info'): Logger {
  return pino(loggerOptions(level));
}
