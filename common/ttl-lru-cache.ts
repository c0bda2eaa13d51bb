/**
 * A small in-process cache with a size bound (least recently used goes first) and a time to live: the spec's
 * autosuggest (1000 entries, 15 min) and preview (50 entries, 2 min) caches, on the server and in the app. Never
 * shared between orgs or viewers: the key always names both. It does not know who may read what: the server
 * re-checks that before serving an entry (server/api/search/routes.ts).
 */
export class TtlLruCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= this.clock()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.clock() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
