// The crash tests' side of a worker process (worker-entry.ts): spawns it over a data folder, counts the batches it
// commits and the slices it yields from its log lines, and lets a test wait for a count before it SIGKILLs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./worker-entry.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  /** Sync batches committed so far. */
  batches(): number;
  /** Sync runs that ended a slice and requeued themselves. */
  slices(): number;
  /** The signal that killed it, or 0 when it exited cleanly; rejects with its stderr on a failure exit. */
  exited: Promise<NodeJS.Signals | number>;
}

/**
 * A worker process over the PostgreSQL database `databaseUrl`, or DATA_DIR `dir`'s embedded store when it is null,
 * with one-second job leases. DATA_DIR also holds the secret key it decrypts credentials with.
 */
export function startWorkerProcess(dir: string, databaseUrl: string | null): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dir, SCOUT_JOB_LEASE_MS: '1000', TEST_DATABASE_URL: databaseUrl ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let committed = 0;
  let sliced = 0;
  let pending = '';
  child.stdout?.on('data', (data: Buffer) => {
    pending += data.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"sync batch committed"')) committed += 1;
      if (line.includes('"kind":"yielded"')) sliced += 1;
    }
  });
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
  const exited = new Promise<NodeJS.Signals | number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal) resolve(signal);
      else if (code === 0) resolve(0);
      else reject(new Error(`worker exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
  return { child, batches: () => committed, slices: () => sliced, exited };
}

/** Waits until `condition` holds (true) or the process has exited first (false). */
export async function until(condition: () => boolean, exited: Promise<unknown>): Promise<boolean> {
  let done = false;
  void exited.then(
    () => (done = true),
    () => (done = true),
  );
  while (!condition()) {
    if (done) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
