import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeReconnectCard, countReconnect, readReconnectCounts } from './reconnect-counts';

// The tests run in Node: a Map-backed Storage stands in for the browser's localStorage.
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

beforeEach(() => {
  (globalThis as { window?: unknown }).window = { localStorage: new MemoryStorage() };
});
afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('reconnect counts', () => {
  it('starts empty, counts reconnects per user, and closing sets each listed app to at least 1', () => {
    expect(readReconnectCounts('u1')).toEqual({});
    countReconnect('u1', 'slack');
    countReconnect('u1', 'slack');
    closeReconnectCard('u1', ['slack', 'notion']);
    expect(readReconnectCounts('u1')).toEqual({ slack: 2, notion: 1 });
    expect(readReconnectCounts('u2')).toEqual({});
  });

  it('ignores what it cannot read', () => {
    const storage = (globalThis as unknown as { window: { localStorage: MemoryStorage } }).window
      .localStorage;
    storage.setItem('scout.reconnectedApps.u1', 'not json');
    expect(readReconnectCounts('u1')).toEqual({});
    storage.setItem('scout.reconnectedApps.u1', '{"slack":"many","notion":1}');
    expect(readReconnectCounts('u1')).toEqual({ notion: 1 });
  });
});
