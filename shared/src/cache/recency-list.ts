/** The links a `RecencyList` keeps in each of its entries. */
export interface Linked<T> {
  older: T | undefined;
  newer: T | undefined;
}

/**
 * A doubly linked list through its entries, oldest to newest: the recency order beside a Map that
 * only finds entries (`LruCache`, the gateway's invalidation log). Moving an entry is a few pointer
 * writes and never touches the map: re-inserting a Map key to move it costs V8 a longer hash chain
 * per move until the table is rebuilt, which made a hot key's lookups slower with every hit
 * (lru.ts says by how much).
 */
export class RecencyList<T extends Linked<T>> {
  #oldest: T | undefined;
  #newest: T | undefined;

  get oldest(): T | undefined {
    return this.#oldest;
  }

  /** Adds an entry that is in no list at the newest end. */
  append(entry: T): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
  }

  unlink(entry: T): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  moveToNewest(entry: T): void {
    if (entry === this.#newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  clear(): void {
    this.#oldest = undefined;
    this.#newest = undefined;
  }
}
