/**
 * A small in-process cache of answers that hold for a few seconds: each entry expires `ttlMs`
 * after it was loaded (by the app's clock, so tests move time by hand), and past `maxEntries` the
 * least recently used goes. The promise itself is kept, so requests arriving together (a page of
 * thumbnails) share one load; a load that fails is forgotten at once.
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, { value: Promise<V>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: K, now: number, load: () => Promise<V>): Promise<V> {
    const found = this.entries.get(key);
    this.entries.delete(key);
    if (found && found.until > now) {
      // Re-inserted: a Map keeps insertion order, so the first key is the least recently used.
      this.entries.set(key, found);
      return found.value;
    }
    const value = load();
    const entry = { value, until: now + this.ttlMs };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
