// An answer's debug logs as the message shows them (spec asking-questions §2, §9: up to 100 stages): each stage with
// when it began and how long the one before it took.
import type { DebugLogs } from '../../common/api/messages';
import { DEBUG_STAGES_MAX } from '../../common/limits';

export type DebugRow = { stage: string; atMs: number; sinceLastMs: number; detail: string | null };

export function debugRows(logs: Pick<DebugLogs, 'stages'>): DebugRow[] {
  return logs.stages.slice(0, DEBUG_STAGES_MAX).map((entry, index, stages) => ({
    stage: entry.stage,
    atMs: entry.at_ms,
    sinceLastMs: index === 0 ? entry.at_ms : entry.at_ms - stages[index - 1]!.at_ms,
    detail: entry.detail ?? null,
  }));
}

/** Milliseconds under a second, else seconds with one decimal. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
