import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Bytes ≥ 248 are redrawn so every symbol is equally likely (248 = 4 × 62). */
const UNBIASED_LIMIT = 248;

/** The readable prefixes of the ids Flowstate mints (contracts/src/ids.ts has their schemas). */
export type IdPrefix = "usr" | "tnt" | "ses" | "key" | "evt" | "exp" | "chg" | (string & {});

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time and each used once, as Node's own
 * randomUUID keeps its entropy. Why: a `randomBytes` call per id cost ~1.6 µs of an id's 1.8
 * (0.17 µs pooled, Node 24), and every request, event and audit record mints ids.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function base62(length: number): string {
  let out = "";
  while (out.length < length) {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    const b = pool[next++]!;
    if (b >= UNBIASED_LIMIT) continue;
    out += ALPHABET[b % 62];
  }
  return out;
}

/**
 * The one id generator: `<prefix>_` + 22 random base-62 characters (about 131 bits), so ids are
 * unguessable as well as unique, and a `sub` says nothing about the person. With `timeOrdered`,
 * 9 base-36 characters of the creation time come first (ids sort by creation until the year 5188,
 * handy in logs; event ids use it) and 16 random characters follow (~95 bits).
 *
 * @example
 * newId("tnt") // "tnt_4fN0c1Qk2m9ZpXbT7yWq3L"
 * newId("evt", { timeOrdered: true }) // "evt_0mbq1k2xz…"
 */
export function newId(prefix: IdPrefix, options: { timeOrdered?: boolean; now?: number } = {}): string {
  if (!options.timeOrdered) return `${prefix}_${base62(22)}`;
  const now = options.now ?? Date.now();
  return `${prefix}_${now.toString(36).padStart(9, "0")}${base62(16)}`;
}
