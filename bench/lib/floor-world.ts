import type { LoadGroup } from "./load.ts";

/**
 * The mixed run's shape at the floor: `keys` rows, each read (GET /floor/{key}) and written (PATCH,
 * a rename from a few names) at random, reads and writes at `readsPerWrite`:1, nothing of
 * Flowstate's (two-hop-floor.ts). What a read and a write cost there is what any design pays.
 */
export function floorWorkload(keys: number, readsPerWrite: number): LoadGroup[] {
  const paths = Array.from({ length: keys }, (_, i) => `/floor/k${i}`);
  const names = ["North", "South", "East", "West"].map((n) => JSON.stringify({ name: `Floor ${n}` }));
  return [
    { name: "reads", weight: readsPerWrite, requests: paths.map((path) => ({ method: "GET", path })) },
    { name: "writes", weight: 1, requests: paths.map((path) => ({ method: "PATCH", path, bodies: names })) },
  ];
}
