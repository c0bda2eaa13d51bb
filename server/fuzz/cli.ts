// `npm run fuzz -- --iterations N --seed S [--only text]`: a longer run of the fuzzer than the test suite's.
import { parseArgs } from 'node:util';
import { runFuzz } from './run';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '21' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string' },
  },
});
const started = Date.now();
const report = await runFuzz({
  iterations: Number(values.iterations),
  seed: Number(values.seed),
  only: values.only,
  progress: (line) => console.error(line),
});
for (const failure of report.failures)
  process.stdout.write(
    `FAIL ${failure.target} [${failure.kind}]: ${failure.problem}\n  ${failure.payload}\n`,
  );
process.stdout.write(
  `${report.requests} requests, ${report.socketMessages} socket messages, ${report.failures.length} failures ` +
    `(seed ${values.seed}, ${Math.round((Date.now() - started) / 1000)} s)\n`,
);
process.exitCode = report.failures.length > 0 ? 1 : 0;
