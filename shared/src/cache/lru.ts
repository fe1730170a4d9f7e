/**
 * The platform's one bounded cache: a map with optional per-entry expiry and least-recently-used
 * eviction (the gateway's token and access caches, assertion signing and verification, rate-limit
 * buckets). A JavaScript Map keeps
 * insertion order, so re-inserting on a hit moves the entry to the young end and the first key is
 * always the eviction candidate: O(1) everywhere, no timers. Bounded because every key here comes
 * from a caller (tokens, key hashes): an unbounded map is a memory exhaustion vector.
 *
 * @example
 * const tokens = new LruCache<Claims>(10_000);
 * tokens.set(jwt, claims, claims.exp * 1000);
 * tokens.get(jwt); // claims until exp, then undefined
 */
export class LruCache<V> {
  readonly max: number;
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError("LruCache max must be a positive integer");
    this.max = max;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` until `expiresAt` (ms since the epoch; forever by default), evicting the least recently used entry when full. */
  set(key: string, value: V, expiresAt = Number.POSITIVE_INFINITY): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt });
    if (this.#entries.size > this.max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
