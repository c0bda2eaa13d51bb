import { describe, it, expect } from 'vitest';
import {
  ConnectionStatus,
  SYNC_WINDOW_MS,
  isErrorStatus,
  isInProgress,
  syncProgressPercent,
} from './connection-status';

const now = new Date('2025-06-01T00:00:00Z');

describe('connection status', () => {
  it('groups in-progress and error statuses', () => {
    expect(isInProgress(ConnectionStatus.Connecting)).toBe(true);
    expect(isInProgress(ConnectionStatus.Indexing)).toBe(true);
    expect(isInProgress(ConnectionStatus.IndexingComplete)).toBe(false);
    expect(isErrorStatus(ConnectionStatus.ErrorReconnect)).toBe(true);
    expect(isErrorStatus(ConnectionStatus.IndexingFailed)).toBe(true);
    expect(isErrorStatus(ConnectionStatus.ErrorDoNotReconnect)).toBe(false);
  });

  it('measures sync progress against three years, clamped to whole percents', () => {
    expect(syncProgressPercent(null, now)).toBe(0);
    expect(syncProgressPercent('not a date', now)).toBe(0);
    expect(syncProgressPercent(now, now)).toBe(0);
    expect(syncProgressPercent(new Date(now.getTime() + 1000), now)).toBe(0);
    expect(syncProgressPercent(new Date(now.getTime() - SYNC_WINDOW_MS / 2), now)).toBe(50);
    expect(syncProgressPercent(new Date(now.getTime() - SYNC_WINDOW_MS).toISOString(), now)).toBe(100);
    expect(syncProgressPercent('2010-01-01T00:00:00Z', now)).toBe(100);
  });
});
