import { type Linked, RecencyList } from "@flowstate/shared/cache/recency-list";

/** A key's latest mark, linked into the log's list of marks from oldest to newest. */
interface Mark extends Linked<Mark> {
  key: string;
  seq: number;
  at: number;
}

/**
 * Which cached facts a revocation made stale, without scanning the caches. Every invalidation
 * takes the next sequence number and stamps it on the keys it names (`acct:usr_…`, `ses:ses_…`,
 * `mem:tnt_…:usr_…`, …). A cached entry remembers the sequence number current when its fetch
 * STARTED and the keys it depends on; it is fresh only while none of those keys was stamped later.
 *
 * Taking the snapshot before the fetch closes the classic race: a lookup that started before a
 * revocation and finishes after it carries an older number, so its (possibly stale) answer is
 * never trusted, even if it is stored after the invalidation ran.
 *
 * Marks are forgotten after `retentionMs`, which must be at least the longest TTL of any cache
 * using the log (counted from fetch start): by then every entry fetched before the mark expired.
 * A list beside the map keeps the marks in time order, so pruning stops at the first young one.
 * Why not the map's own insertion order (delete and set a key again on each mark, as until
 * session 21): V8 keeps a deleted entry in its key's hash chain until the table is rebuilt, so a
 * key marked over and over (a busy tenant's flags) lengthened its own chain with each mark and
 * every request that checked it walked the chain: 15 µs per write with nine reads of it among
 * 5,000 other marks, against 0.5 µs now (measured alone; shared/src/cache/lru.ts found the same).
 *
 * @example
 * const log = new InvalidationLog(60_000);
 * const seq = log.snapshot();           // before fetching session ses_1 of usr_1
 * log.mark(["acct:usr_1"]);             // sign-out elsewhere
 * log.isFresh(["ses:ses_1", "acct:usr_1"], seq); // false
 */
export class InvalidationLog {
  readonly retentionMs: number;
  #seq = 0;
  #floor = 0;
  readonly #marks = new Map<string, Mark>();
  readonly #byTime = new RecencyList<Mark>();

  constructor(retentionMs: number) {
    this.retentionMs = retentionMs;
  }

  snapshot(): number {
    return this.#seq;
  }

  mark(keys: readonly string[], now = Date.now()): void {
    const seq = ++this.#seq;
    for (const key of keys) {
      const mark = this.#marks.get(key);
      if (mark === undefined) {
        const added: Mark = { key, seq, at: now, newer: undefined, older: undefined };
        this.#marks.set(key, added);
        this.#byTime.append(added);
      } else {
        mark.seq = seq;
        mark.at = now;
        this.#byTime.moveToNewest(mark);
      }
    }
    this.#prune(now);
  }

  /** Everything cached so far becomes stale (an invalidation too broad to name keys, or a lost event stream). */
  markAll(): void {
    this.#floor = ++this.#seq;
  }

  isFresh(deps: readonly string[], fetchedAt: number): boolean {
    if (fetchedAt < this.#floor) return false;
    for (const key of deps) {
      const mark = this.#marks.get(key);
      if (mark !== undefined && mark.seq > fetchedAt) return false;
    }
    return true;
  }

  get size(): number {
    return this.#marks.size;
  }

  #prune(now: number): void {
    const horizon = now - this.retentionMs;
    for (let old = this.#byTime.oldest; old !== undefined && old.at < horizon; old = this.#byTime.oldest) {
      this.#byTime.unlink(old);
      this.#marks.delete(old.key);
    }
  }
}
