/**
 * The logging surface a connector sees: pino's object-first calls, so the worker can hand in its pino child
 * logger as is. Connectors log ids, counts and paths, never credentials, headers or document bodies.
 */
export interface ConnectorLogger {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

const ignore = () => undefined;

export const silentLogger: ConnectorLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
