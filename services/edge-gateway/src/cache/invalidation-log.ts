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
  readonly #marks = new Map<string, { seq: number; at: number }>();

  constructor(retentionMs: number) {
    this.retentionMs = retentionMs;
  }

  snapshot(): number {
    return this.#seq;
  }

  mark(keys: readonly string[], now = Date.now()): void {
    const seq = ++this.#seq;
    for (const key of keys) {
      this.#marks.delete(key); // keep the map ordered by time, so pruning stops at the first young mark
      this.#marks.set(key, { seq, at: now });
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
    for (const [key, mark] of this.#marks) {
      if (mark.at >= horizon) break;
      this.#marks.delete(key);
    }
  }
}
