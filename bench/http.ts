// The server's own overhead on the cheapest call: a request through Fastify, the error model and a store ping.
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createTestServer } from '../server/testing/server';
import { ms, summarise } from './stats';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);

export async function benchHttp(): Promise<void> {
  const server = await createTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/api/v1/health`;
  for (let i = 0; i < 100; i++) await (await fetch(url)).arrayBuffer();
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await (await fetch(url)).arrayBuffer();
    samples.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  const s = summarise(samples);
  console.log(
    `http GET /api/v1/health (embedded store, sequential, ${REQUESTS} requests): ` +
      `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)}, ${(REQUESTS / seconds).toFixed(0)} req/s`,
  );
  await server.close();
}
