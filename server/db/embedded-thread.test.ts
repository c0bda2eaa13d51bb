import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgs } from './schema';
import { openStore, type Store } from './store';

let store: Store;
beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(() => store.close());

describe("the embedded store's thread", () => {
  it('keeps the event loop turning while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const started = performance.now();
    // a statement of a second or more: in the API's thread, no timer could fire until it ended
    await store.db.execute(
      sql`SELECT count(*) FROM generate_series(1, 1000000) AS n WHERE md5(n::text) > 'f'`,
    );
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(elapsed).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('commits a transaction that returns and rolls back one that throws, with savepoints inside', async () => {
    const name = (suffix: string) => `thread-${suffix}`;
    await store.db.transaction(async (tx) => {
      await tx.insert(orgs).values({ name: name('kept'), domain: 'kept.thread.test' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(orgs).values({ name: name('inner'), domain: 'inner.thread.test' });
          throw new Error('undo the savepoint only');
        })
        .catch(() => {});
    });
    await expect(
      store.db.transaction(async (tx) => {
        await tx.insert(orgs).values({ name: name('lost'), domain: 'lost.thread.test' });
        throw new Error('undo it all');
      }),
    ).rejects.toThrow('undo it all');
    const names = (await store.db.select({ name: orgs.name }).from(orgs)).map((row) => row.name);
    expect(names).toContain(name('kept'));
    expect(names).not.toContain(name('inner'));
    expect(names).not.toContain(name('lost'));
  });

  it("hands back PostgreSQL's error fields, never the statement's parameters", async () => {
    const secret = 'a private body that must not reach a log';
    const error = await store.db
      .execute(sql`SELECT ${secret}::int`)
      .then(() => null)
      .catch((err: unknown) => (err as { cause?: Record<string, unknown> }).cause);
    expect(error).toMatchObject({ code: '22P02' });
    expect(String(error?.message)).toContain('invalid input syntax for type integer');
    // drizzle's own wrapper names the parameters; the logger drops them (logger.test.ts)
    expect(JSON.stringify(error)).not.toContain(secret);
  });

  it('answers a health ping before the statements queued ahead of it', async () => {
    const order: string[] = [];
    const slow = sql`SELECT count(*) FROM generate_series(1, 300000) AS n WHERE md5(n::text) > 'f'`;
    const backlog = [1, 2, 3].map((n) => store.db.execute(slow).then(() => order.push(`statement ${n}`)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.ping();
    order.push('ping');
    await Promise.all(backlog);
    // the ping may wait for the statement running when it arrives, never for the ones behind it
    expect(order.indexOf('ping')).toBeLessThan(2);
  });

  it('waits behind an open transaction, as one connection does', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = store.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      order.push('tx started');
      await held;
      order.push('tx ends');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = store.db.execute(sql`SELECT 1`).then(() => order.push('outside ran'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(['tx started', 'tx ends', 'outside ran']);
  });

  it('lets a process that forgot to close the store exit once it is idle', () => {
    const storeModule = fileURLToPath(new URL('./store.ts', import.meta.url));
    const script = path.join(mkdtempSync(path.join(tmpdir(), 'scout-thread-')), 'forgot-to-close.mts');
    writeFileSync(
      script,
      `const { openStore } = await import(${JSON.stringify(storeModule)});\n` +
        `const store = await openStore({ dataDir: 'memory://' });\n` +
        `await store.ping();\nconsole.log('pinged');\n`,
    );
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 110_000,
    });
    rmSync(path.dirname(script), { recursive: true, force: true });
    expect(result.stdout).toContain('pinged');
    expect(result.status).toBe(0);
  }, 120_000);
});
