/**
 * (issue 26) The platform's bounded cache (shared/src/cache/lru.ts) on the pattern the gateway
 * puts it under: one key read over and over (a user's token, a busy tenant's membership) in a
 * cache full of others. A hit must cost the same whatever the cache holds; the row beside it is
 * the Map idiom the cache used until session 21 (delete and set again on every hit), whose cost
 * grows with the map (V8 keeps deleted entries in the key's hash chain until the table is rebuilt).
 * In process, single-threaded, nanoseconds per hit.
 */
import { LruCache } from "@flowstate/shared/cache/lru";
import type { BenchRow } from "./lib/types.ts";

const HITS = 200_000;
const FULL = 10_000;

/** Nanoseconds per call of `hit`, after a warm-up of the same length. */
function perHit(hit: () => void): number {
  for (let i = 0; i < HITS; i++) hit();
  const started = process.hrtime.bigint();
  for (let i = 0; i < HITS; i++) hit();
  return Number(process.hrtime.bigint() - started) / HITS;
}

function lruHit(entries: number): number {
  const cache = new LruCache<number>(entries);
  for (let i = 0; i < entries - 1; i++) cache.set(`usr_${i}`, i);
  cache.set("hot", 1);
  return perHit(() => cache.get("hot"));
}

function mapIdiomHit(entries: number): number {
  const map = new Map<string, number>();
  for (let i = 0; i < entries - 1; i++) map.set(`usr_${i}`, i);
  map.set("hot", 1);
  return perHit(() => {
    const value = map.get("hot")!;
    map.delete("hot");
    map.set("hot", value);
  });
}

export default async function cacheBench(): Promise<BenchRow[]> {
  const small = lruHit(10);
  const full = lruHit(FULL);
  const idiomSmall = mapIdiomHit(10);
  const idiomFull = mapIdiomHit(FULL);
  const round = (ns: number) => Math.round(ns * 10) / 10;
  return [
    {
      name: `LruCache: a hit on one hot key, ${FULL.toLocaleString("en")} entries`,
      value: round(full),
      unit: "ns/hit",
      baseline: { name: "the same in a cache of 10 entries", value: round(small) },
      ratio: full / small,
      target: "<= 2x (a hit costs the same at any size)",
      met: full <= 2 * small,
    },
    {
      name: `Map delete + set on every hit (the idiom before session 21), ${FULL.toLocaleString("en")} entries`,
      value: round(idiomFull),
      unit: "ns/hit",
      baseline: { name: "the same in a map of 10 entries", value: round(idiomSmall) },
      ratio: idiomFull / idiomSmall,
    },
  ];
}
