// Rules every request payload obeys whatever its schema says. The REST validator and the chat socket both parse
// through parseRequest, so a new route or message type cannot forget them.
import { z } from 'zod';
import { input as strings } from '../strings';

// C0 controls but tab, newline and carriage return, and DEL. PostgreSQL refuses NUL in text (a 500 before this
// rule), and none of them belongs in a name, a query or a message.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Deeper than any payload we define; walking or storing (jsonb) something deeper costs stack, not information. */
export const MAX_INPUT_DEPTH = 32;
/** An error names where the input is wrong, never what it holds: a path longer than this is cut. */
const MAX_PATH_CHARS = 80;
const MAX_ISSUE_CHARS = 160;

type Path = (string | number)[];
type Problem = { path: Path; message: string };

/** The first string (value or object key) holding a control character, or container nested too deeply. */
function findUnsafeInput(value: unknown): Problem | null {
  const pending: { value: unknown; path: Path }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (CONTROL_CHARACTER.test(value)) return { path, message: strings.CONTROL_CHARACTERS };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, message: strings.TOO_DEEP };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], path: [...path, i] });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (CONTROL_CHARACTER.test(key)) return { path, message: strings.CONTROL_CHARACTERS };
      pending.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

function describe(part: string, { path, message }: Problem): string {
  const where = [part, ...path].join('.');
  const shortWhere = where.length > MAX_PATH_CHARS ? `${where.slice(0, MAX_PATH_CHARS)}…` : where;
  const shortMessage = message.length > MAX_ISSUE_CHARS ? `${message.slice(0, MAX_ISSUE_CHARS)}…` : message;
  return `Invalid ${shortWhere}: ${shortMessage}`;
}

function problemOf(issue: z.core.$ZodIssue | undefined): Problem {
  if (!issue) return { path: [], message: 'invalid value' };
  // zod's own message lists every unknown key: megabytes of the caller's input sent back.
  if (issue.code === 'unrecognized_keys') return { path: issue.path as Path, message: strings.UNKNOWN_FIELD };
  return { path: issue.path as Path, message: issue.message };
}

export type ParsedRequest<T> = { success: true; data: T } | { success: false; message: string };

/**
 * Parses one part of a request (`body`, `querystring`, `params`, a socket `message`). A refusal names the first
 * offending path only and never echoes the input, so the answer stays small whatever was sent.
 */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  data: unknown,
  part: string,
): ParsedRequest<z.output<S>> {
  const unsafe = findUnsafeInput(data);
  if (unsafe) return { success: false, message: describe(part, unsafe) };
  const parsed = schema.safeParse(data);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, message: describe(part, problemOf(parsed.error.issues[0])) };
}

/**
 * Instants a request may carry. PostgreSQL has no year 0 and JavaScript writes years past 9999 as `+010000`, which
 * it refuses. Documents can be old (an archive, a scanned contract), so the floor is not the epoch; but a year
 * under 100 comes back from the store as 19xx or 20xx (the driver's date parsing), so it is the year 1000.
 */
export const EARLIEST_INSTANT_MS = Date.parse('1000-01-01T00:00:00Z');
export const LATEST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export const isInstantInRange = (date: Date) =>
  date.getTime() >= EARLIEST_INSTANT_MS && date.getTime() <= LATEST_INSTANT_MS;

/** An ISO-8601 date-time with an offset, inside the range every store and `Date` can hold. */
export const isoInstantSchema = z.iso
  .datetime({ offset: true })
  .refine((value) => isInstantInRange(new Date(value)), strings.DATE_OUT_OF_RANGE);

/** Seconds since the epoch, inside the same range. */
export const unixSecondsSchema = z
  .number()
  .int()
  .min(EARLIEST_INSTANT_MS / 1000)
  .max(Math.floor(LATEST_INSTANT_MS / 1000));

/**
 * A link a person will click (company bookmarks, document urls): http or https only, so a stored
 * `javascript:` or `data:` link can never run in the app.
 */
export const safeLinkSchema = z
  .url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: strings.HTTP_LINK_ONLY })
  .max(2048);
