import { type Linked, RecencyList } from "./recency-list.ts";

/** One cached value, linked into the cache's recency list (oldest to newest). */
interface Entry<V> extends Linked<Entry<V>> {
  key: string;
  value: V;
  expiresAt: number;
}

/**
 * The platform's one bounded cache: a map with optional per-entry expiry and least-recently-used
 * eviction (the gateway's token and access caches, assertion signing and verification, rate-limit
 * buckets). The map finds an entry; a doubly linked list through the entries (RecencyList) keeps
 * their recency, so a hit moves its entry to the young end with a few pointer writes and an
 * eviction takes the old end: O(1) everywhere, no timers. Bounded because every key here comes from a caller
 * (tokens, key hashes): an unbounded map is a memory exhaustion vector.
 *
 * Why not the Map's own insertion order (delete and set again on a hit, the first key evicted), as
 * this class was until session 21: V8 leaves a deleted entry in its hash bucket's chain until the
 * table is rebuilt, so a key deleted and set again over and over (a hot key: one user's token, a
 * busy tenant's membership) lengthens its own chain by one each time, and every lookup of it walks
 * all of them: ~17 µs per hit in a map of 9,000 entries against ~0.1 µs for keys that rotate
 * (Node 24, measured alone), and a quarter of the edge gateway's CPU in the one-user round of
 * bench/40-gateway.bench.ts. Here the map is only written when a key is added or removed.
 *
 * @example
 * const tokens = new LruCache<Claims>(10_000);
 * tokens.set(jwt, claims, claims.exp * 1000);
 * tokens.get(jwt); // claims until exp, then undefined
 */
export class LruCache<V> {
  readonly max: number;
  readonly #entries = new Map<string, Entry<V>>();
  readonly #recency = new RecencyList<Entry<V>>();

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
    if (entry.expiresAt <= now) {
      this.#remove(entry);
      return undefined;
    }
    this.#recency.moveToNewest(entry);
    return entry.value;
  }

  /** Stores `value` until `expiresAt` (ms since the epoch; forever by default), evicting the least recently used entry when full. */
  set(key: string, value: V, expiresAt = Number.POSITIVE_INFINITY): void {
    const existing = this.#entries.get(key);
    if (existing !== undefined) {
      existing.value = value;
      existing.expiresAt = expiresAt;
      this.#recency.moveToNewest(existing);
      return;
    }
    const entry: Entry<V> = { key, value, expiresAt, older: undefined, newer: undefined };
    this.#recency.append(entry);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.max) this.#remove(this.#recency.oldest!);
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.#remove(entry);
  }

  clear(): void {
    this.#entries.clear();
    this.#recency.clear();
  }

  #remove(entry: Entry<V>): void {
    this.#recency.unlink(entry);
    this.#entries.delete(entry.key);
  }
}
