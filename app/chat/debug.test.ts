import { describe, expect, it } from 'vitest';
import { debugRows, formatDuration } from './debug';

describe('debug logs', () => {
  it('lists each stage with its time and the time since the one before', () => {
    const rows = debugRows({
      stages: [
        { stage: 'SENDING_REQUEST', at_ms: 3 },
        { stage: 'GATHERING_DATA', at_ms: 40, detail: 'notion' },
        { stage: 'STREAMING_ANSWER', at_ms: 1240 },
      ],
    });
    expect(rows).toEqual([
      { stage: 'SENDING_REQUEST', atMs: 3, sinceLastMs: 3, detail: null },
      { stage: 'GATHERING_DATA', atMs: 40, sinceLastMs: 37, detail: 'notion' },
      { stage: 'STREAMING_ANSWER', atMs: 1240, sinceLastMs: 1200, detail: null },
    ]);
  });

  it('shows at most 100 stages', () => {
    const stages = Array.from({ length: 130 }, (_, index) => ({ stage: `S${index}`, at_ms: index }));
    expect(debugRows({ stages })).toHaveLength(100);
  });

  it('formats durations', () => {
    expect(formatDuration(37.4)).toBe('37 ms');
    expect(formatDuration(1240)).toBe('1.2 s');
  });
});
