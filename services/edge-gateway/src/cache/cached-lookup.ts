import { LruCache } from "@flowstate/shared/cache/lru";
import type { InvalidationLog } from "./invalidation-log.ts";

export interface CachedLookupOptions<V, C = undefined> {
  log: InvalidationLog;
  max: number;
  /** How long a found value is trusted without an invalidation; bounds the window if events are lost. */
  ttlMs: number;
  /** How long "not found" is trusted; short, since a grant (new member) sends no invalidation. */
  negativeTtlMs: number;
  /** `ctx` is what the first caller of a miss passed to `load` (e.g. whom to sign the lookup as). */
  fetch: (key: string, ctx: C) => Promise<V | null>;
  /** The invalidation keys this answer depends on (see InvalidationLog). */
  deps: (key: string, value: V | null) => readonly string[];
}

interface Entry<V> {
  value: V | null;
  deps: readonly string[];
  seq: number;
}

const MAX_ATTEMPTS = 3;

/**
 * A read-through cache for facts owned by identity-svc (session state, memberships, API keys),
 * invalidated through an InvalidationLog. Concurrent misses for one key share one fetch, unless
 * an invalidation ran since that fetch started: a request that arrives after a revocation never
 * rides on a lookup begun before it. A fetch overtaken by an invalidation is retried, so its
 * stale answer is neither stored nor used.
 *
 * @example
 * const sessions = new CachedLookup({ log, max: 50_000, ttlMs: 60_000, negativeTtlMs: 5_000,
 *   fetch: (sid) => identity.session(sid), deps: (sid, s) => [`ses:${sid}`, ...(s ? [`acct:${s.sub}`] : [])] });
 * const state = sessions.peek(sid) ?? (await sessions.load(sid, undefined));
 */
export class CachedLookup<V, C = undefined> {
  readonly #options: CachedLookupOptions<V, C>;
  readonly #cache: LruCache<Entry<V>>;
  readonly #inflight = new Map<string, { seq: number; promise: Promise<V | null> }>();

  constructor(options: CachedLookupOptions<V, C>) {
    if (Math.max(options.ttlMs, options.negativeTtlMs) > options.log.retentionMs) {
      throw new RangeError("a cached lookup may not outlive the invalidation log's retention");
    }
    this.#options = options;
    this.#cache = new LruCache(options.max);
  }

  /** The cached answer (null = known absent), or undefined when it must be loaded. Synchronous: the hot path. */
  peek(key: string, now = Date.now()): V | null | undefined {
    const entry = this.#cache.get(key, now);
    if (entry === undefined) return undefined;
    if (!this.#options.log.isFresh(entry.deps, entry.seq)) {
      this.#cache.delete(key);
      return undefined;
    }
    return entry.value;
  }

  load(key: string, ctx: C): Promise<V | null> {
    const log = this.#options.log;
    const running = this.#inflight.get(key);
    if (running !== undefined && running.seq === log.snapshot()) return running.promise;
    const seq = log.snapshot();
    const promise = this.#fetch(key, ctx, seq).finally(() => {
      if (this.#inflight.get(key)?.promise === promise) this.#inflight.delete(key);
    });
    this.#inflight.set(key, { seq, promise });
    return promise;
  }

  #fetch = async (key: string, ctx: C, firstSeq: number): Promise<V | null> => {
    const { log, fetch, deps, ttlMs, negativeTtlMs } = this.#options;
    let seq = firstSeq;
    let value: V | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const startedAt = Date.now();
      value = await fetch(key, ctx);
      const entryDeps = deps(key, value);
      if (log.isFresh(entryDeps, seq)) {
        // Expiry counts from the fetch's start: the InvalidationLog forgets marks on that basis.
        this.#cache.set(key, { value, deps: entryDeps, seq }, startedAt + (value === null ? negativeTtlMs : ttlMs));
        return value;
      }
      seq = log.snapshot();
    }
    return value; // invalidated three times during its own fetches: answer, but do not cache
  };

  delete(key: string): void {
    this.#cache.delete(key);
  }

  get size(): number {
    return this.#cache.size;
  }
}
