import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_DATA_DIR, openStore, type Store } from './db/store';
import { loggerOptions } from './logger';

const SECRET = 'sk-live-7Hq2ZxVb9sEcReT';

let store: Store;
beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
});
afterAll(() => store.close());

/** A real pino logger with our options, writing its lines where the test can read them. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino(loggerOptions('info'), stream), lines };
}

async function failingQueryError(value: string): Promise<unknown> {
  try {
    await store.db.execute(sql`select ${value}::int as n, ${`body ${SECRET}`}::text as body`);
  } catch (error) {
    return error;
  }
  throw new Error('the query should have failed');
}

describe('error log lines', () => {
  it('keep the SQLSTATE and the query error type but no parameter, body or secret of a failed query', async () => {
    const error = await failingQueryError(`token=${SECRET}`);
    const { log, lines } = capturingLogger();
    log.error({ err: error }, 'unhandled error');
    const line = lines.join('');
    expect(line).not.toContain(SECRET);
    const entry = JSON.parse(line) as { err: { type: string; message: string; stack: string } };
    expect(entry.err.type).toBe('DrizzleQueryError');
    expect(entry.err.message).toContain('Failed query');
    expect(entry.err.message).toContain('invalid input syntax for type integer');
    expect(entry.err.stack).toMatch(/\n\s+at /);
    expect(line).toContain('"22P02"');
  });

  it('drop the query data of a database error wrapped inside another error', async () => {
    const wrapped = new Error('search failed', { cause: await failingQueryError(SECRET) });
    const { log, lines } = capturingLogger();
    log.error({ err: wrapped }, 'unhandled error');
    expect(lines.join('')).not.toContain(SECRET);
    expect(lines.join('')).toContain('search failed');
  });
});
