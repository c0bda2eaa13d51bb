// `npm run bench`: every benchmark in turn, printing figures. Speed is measured here, never asserted in tests.
import { benchHttp } from './http';
import { benchIngest } from './ingest';

const benches: Record<string, () => Promise<void>> = { http: benchHttp, ingest: benchIngest };
const wanted = process.argv.slice(2);

for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  await run();
}
