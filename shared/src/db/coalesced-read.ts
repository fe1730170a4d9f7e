/**
 * Point reads that share database round trips when the pool is saturated: up to `maxInFlight`
 * statements run at once (the pool's size); a read that arrives while all of them are busy waits
 * for the next free slot together with every other read that arrived meanwhile, and the whole
 * group is one statement. At low load each read is its own statement, sent at once (no timer,
 * no added latency); under load the statements, PostgreSQL's per-statement work and the socket
 * writes and wake-ups are shared by the group. Every read still hits the database: nothing is
 * cached.
 *
 * @example
 * const byId = coalescedRead<string, Row>({ maxInFlight: 10, maxBatch: 64, run: (ids) => selectByIds(ids) });
 * const row = await byId.load("tnt_x");
 */
export interface CoalescedRead<K, R> {
  load(key: K): Promise<R | undefined>;
}

export interface CoalescedReadOptions<K, R> {
  maxInFlight: number;
  /** Largest group per statement. */
  maxBatch: number;
  /** Reads the keys in one statement; answers one entry per key, in order (undefined: none). */
  run: (keys: K[]) => Promise<(R | undefined)[]>;
}

interface Waiting<K, R> {
  key: K;
  resolve: (row: R | undefined) => void;
  reject: (err: unknown) => void;
}

export function coalescedRead<K, R>(options: CoalescedReadOptions<K, R>): CoalescedRead<K, R> {
  let inFlight = 0;
  let queue: Waiting<K, R>[] = [];

  const start = (group: Waiting<K, R>[]) => {
    inFlight++;
    options
      .run(group.map((w) => w.key))
      .then(
        (rows) => {
          for (let i = 0; i < group.length; i++) group[i]!.resolve(rows[i]);
        },
        (err) => {
          for (const w of group) w.reject(err);
        },
      )
      .finally(() => {
        inFlight--;
        if (queue.length) {
          const next = queue.length > options.maxBatch ? queue.splice(0, options.maxBatch) : queue;
          if (next === queue) queue = [];
          start(next);
        }
      });
  };

  return {
    load: (key) =>
      new Promise((resolve, reject) => {
        const waiting = { key, resolve, reject };
        if (inFlight < options.maxInFlight) start([waiting]);
        else queue.push(waiting);
      }),
  };
}
