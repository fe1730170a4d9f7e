/**
 * The platform's one bounded cache: a map with optional per-entry expiry and least-recently-used
 * eviction (the gateway's token and access caches, assertion signing and verification, rate-limit
 * buckets). A JavaScript Map keeps insertion order, so re-inserting on a hit moves the entry to
 * the young end and the first key is always the eviction candidate: O(1) everywhere, no timers
 * (eviction: see `#nextOldest`). Bounded because every key here comes from a caller (tokens, key
 * hashes): an unbounded map is a memory exhaustion vector.
 *
 * @example
 * const tokens = new LruCache<Claims>(10_000);
 * tokens.set(jwt, claims, claims.exp * 1000);
 * tokens.get(jwt); // claims until exp, then undefined
 */
export class LruCache<V> {
  readonly max: number;
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  /** The eviction cursor: walks the map from its old end, across evictions (see `#nextOldest`). */
  #oldest: MapIterator<string> | undefined;

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
    if (this.#entries.size > this.max) this.#entries.delete(this.#nextOldest());
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#oldest = undefined;
  }

  /**
   * The least recently used key, from an iterator kept between evictions. Why not
   * `keys().next()`: V8 leaves a deleted entry's slot in the map's table until the table is
   * rebuilt, and a new iterator starts at the first slot, so in a full cache (every hit and every
   * eviction frees a slot) each eviction walked every slot freed since the last rebuild: ~3.8 µs
   * per miss at 10,000 entries against ~0.11 µs this way (Node 24); perf and `node --prof` over a
   * whole gateway bench run put a fifth of identity-svc's samples in Map.prototype.set under the
   * assertion cache. A live iterator resumes where it stopped, and no live key is behind it: each
   * key it passed was evicted, or deleted and re-inserted at the young end.
   */
  #nextOldest(): string {
    let next = this.#oldest?.next();
    if (next === undefined || next.done) {
      this.#oldest = this.#entries.keys();
      next = this.#oldest.next();
    }
    return next.value as string;
  }
}
