#!/usr/bin/env node
// `npm test`: types and lint side by side, the SPA build, then the unit and browser projects side by side.
// Vitest gives a 2-core machine one worker, and the unit files must stay one at a time (several share the
// database TEST_DATABASE_URL names), but the browser files run on embedded stores of their own, so the two
// projects can overlap; the whole run then fits CI's 30 minutes. Exits non-zero when any step fails.
import { spawn } from 'node:child_process';

/** Runs a command; `captured` keeps its output to print once it ends, so two runs never interleave lines. */
function run(command, args, { captured = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    if (captured) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('error', (error) => resolve({ ok: false, output: String(error) }));
    child.on('close', (code) => resolve({ ok: code === 0, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

async function sideBySide(first, second, secondName) {
  const background = run(...second, { captured: true });
  const foreground = await run(...first);
  const other = await background;
  process.stdout.write(`\n── ${secondName} ──\n${other.output}`);
  return foreground.ok && other.ok;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const checked = await sideBySide([npm, ['run', 'typecheck']], [npm, ['run', 'lint']], 'npm run lint');
if (!checked) process.exit(1);
if (!(await run(npm, ['run', 'build'])).ok) process.exit(1);
const tested = await sideBySide(
  ['vitest', ['run', '--project', 'unit']],
  ['vitest', ['run', '--project', 'e2e']],
  'vitest run --project e2e',
);
process.exit(tested ? 0 : 1);
