import { describe, expect, it } from 'vitest';
import { runFuzz } from './run';

describe('fuzz (a short fixed-seed run; `npm run fuzz -- --iterations N --seed S` runs longer)', () => {
  it('answers every route and socket message type without a 500 or a hang, and a 4xx changes nothing', async () => {
    const report = await runFuzz({ seed: 20261124, iterations: 7, timeoutMs: 20_000 });
    expect(report.requests).toBeGreaterThan(100);
    expect(report.socketMessages).toBeGreaterThan(20);
    expect(report.failures).toEqual([]);
  }, 240_000);
});
