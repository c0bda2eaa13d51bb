import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ConnectionStatus } from '../common/connection-status';
import { appConnections, jobs } from './db/schema';
import { openStore } from './db/store';
import { enqueueJob } from './jobs/queue';
import { createOrg } from './testing/fixtures';

const SCOUT = fileURLToPath(new URL('../bin/scout.js', import.meta.url));
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<Response> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`scout exited early with ${child.exitCode}`);
    try {
      return await fetch(url);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('scout did not start');
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('the scout command', () => {
  it('lists serve, worker and migrate in --help', () => {
    const result = spawnSync(process.execPath, [SCOUT, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const command of ['serve', 'worker', 'migrate']) expect(result.stdout).toContain(command);
  });

  it('migrates an embedded store, serves a healthy API, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'scout-cli-'));
    dirs.push(dataDir);
    // The embedded default: no server URL and no key given, so the key is generated into the data dir.
    const { DATABASE_URL: _url, SCOUT_SECRET_KEY: _key, ...inherited } = process.env;
    const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };

    const migrate = spawnSync(process.execPath, [SCOUT, 'migrate'], { env, encoding: 'utf8' });
    expect(migrate.status, migrate.stderr).toBe(0);

    for (let run = 0; run < 2; run++) {
      const port = await freePort();
      const child = spawn(process.execPath, [SCOUT, 'serve', '--port', String(port)], { env, stdio: 'pipe' });
      const exit = exited(child);
      const res = await waitForHealth(`http://127.0.0.1:${port}/api/v1/health`, child);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok', store: { kind: 'embedded', reachable: true } });
      child.kill('SIGTERM');
      // A clean close leaves the data directory ready for the next start (the second run proves it).
      expect(await exit).toBe(0);
    }
  }, 120_000);

  it('lists failed jobs and connections with `scout jobs`, and queues a failed job again with `jobs retry`', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'scout-cli-jobs-'));
    dirs.push(dataDir);
    const { DATABASE_URL: _url, SCOUT_SECRET_KEY: _key, ...inherited } = process.env;
    const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const store = await openStore({ databaseUrl: null, dataDir });
    const org = await createOrg(store.db, { domain: 'cli-jobs.test' });
    const [connection] = await store.db
      .insert(appConnections)
      .values({ orgId: org.id, appName: 'website', isOrg: true, statusCode: ConnectionStatus.IndexingFailed })
      .returning();
    await store.db
      .update(appConnections)
      .set({ lastError: 'the site answered 503', lastErrorAt: new Date() })
      .where(eq(appConnections.id, connection!.id));
    const failed = await enqueueJob(store.db, {
      kind: 'connector.sync',
      payload: { connectionId: connection!.id, mode: 'full' },
      lane: 'long',
    });
    await store.db
      .update(jobs)
      .set({ status: 'failed', attempts: 5, lastError: 'the site answered 503' })
      .where(eq(jobs.id, failed));
    await store.close();

    const list = spawnSync(process.execPath, [SCOUT, 'jobs'], { env, encoding: 'utf8' });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(
      `${failed}  failed  long  connector.sync full ${connection!.id}  attempts 5/5`,
    );
    expect(list.stdout).toContain('error: the site answered 503');
    expect(list.stdout).toMatch(
      new RegExp(
        `${connection!.id}  cli-jobs.test  website  IndexingFailed  last sync never  0 items  last error .*: the site answered 503`,
      ),
    );

    const retry = spawnSync(process.execPath, [SCOUT, 'jobs', 'retry', failed], { env, encoding: 'utf8' });
    expect(retry.status, retry.stderr).toBe(0);
    expect(retry.stdout).toBe(`${failed}: queued again\n`);
    const again = spawnSync(process.execPath, [SCOUT, 'jobs', 'retry', failed], { env, encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('has not failed');

    const reopened = await openStore({ databaseUrl: null, dataDir });
    try {
      const [row] = await reopened.db.select().from(jobs).where(eq(jobs.id, failed));
      expect(row).toMatchObject({ status: 'queued', attempts: 0 });
      expect(row!.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
