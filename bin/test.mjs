#!/usr/bin/env node
// `npm test`: types and lint side by side, the SPA build, then the tests in one lane per core. The first lane runs
// the browser files (one at a time: each drives Chromium and a server); every lane takes the unit files from one
// shared queue, in batches that shrink as the queue empties, so the lanes finish together. Every unit file that
// uses the PostgreSQL server makes a database of its own, so any two can run at once. Each run's output is printed
// whole once it ends, so lanes never interleave lines. Exits non-zero when any step fails.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

const MAX_BATCH = 20;
const children = new Set();

/** Runs a command; `captured` keeps its output to print once it ends, so two runs never interleave lines. */
function run(command, args, { captured = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    const chunks = [];
    if (captured) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('error', (error) => resolve({ ok: false, output: String(error) }));
    child.on('close', (code) => {
      children.delete(child);
      resolve({ ok: code === 0, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(1);
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function sideBySide(first, second, secondName) {
  const background = run(...second, { captured: true });
  const foreground = await run(...first);
  const other = await background;
  process.stdout.write(`\n── ${secondName} ──\n${other.output}`);
  return foreground.ok && other.ok;
}

/** The unit project's files, largest first: size is the only hint of how long a file takes in a fresh clone. */
async function unitFiles() {
  const listing = path.join(tmpdir(), `scout-unit-files-${process.pid}.json`);
  const listed = await run('vitest', ['list', '--project', 'unit', '--filesOnly', `--json=${listing}`], {
    captured: true,
  });
  if (!listed.ok) throw new Error(`vitest list failed:\n${listed.output}`);
  const files = JSON.parse(readFileSync(listing, 'utf8')).map((entry) => entry.file);
  return files.sort((a, b) => statSync(b).size - statSync(a).size);
}

const failures = [];

/** Runs a vitest project over `files` (all of the project's when empty), one file at a time, and prints its output. */
async function vitest(project, files, title) {
  const started = Date.now();
  const result = await run('vitest', ['run', '--project', project, '--maxWorkers=1', ...files], {
    captured: true,
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`\n── ${title} (${seconds} s) ──\n${result.output}`);
  if (!result.ok) failures.push(title);
}

async function lane(index, queue, lanes) {
  if (index === 0) await vitest('e2e', [], 'browser tests');
  while (queue.length > 0) {
    const size = Math.min(MAX_BATCH, Math.max(1, Math.ceil(queue.length / (lanes * 2))));
    const batch = queue.splice(0, size);
    const names = batch.map((file) => path.relative(process.cwd(), file));
    await vitest('unit', batch, `unit tests, lane ${index + 1}: ${names.join(', ')}`);
  }
}

const checked = await sideBySide([npm, ['run', 'typecheck']], [npm, ['run', 'lint']], 'npm run lint');
if (!checked) process.exit(1);
if (!(await run(npm, ['run', 'build'])).ok) process.exit(1);

const queue = await unitFiles();
const lanes = Math.max(2, availableParallelism());
await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index, queue, lanes)));
if (failures.length > 0) {
  process.stdout.write(
    `\n${failures.length} test run(s) failed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write('\nAll tests passed.\n');
