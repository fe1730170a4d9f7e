/**
 * One row of `npm run bench`. Each `bench/*.bench.ts` file default-exports an async function that
 * starts what it needs, measures, stops everything, and returns its rows. A ratio compares the
 * figure to a baseline measured in the same run, so rows stay meaningful across machines.
 */
export interface BenchRow {
  /** What was measured, e.g. "edge-gateway: GET /v1/tenants/{id} (32 conns)". */
  name: string;
  value: number;
  unit: string; // "req/s", "ms", "calls/event", "ms CPU/event"
  /** The same-run baseline this row is compared with, when there is one. */
  baseline?: { name: string; value: number };
  /** value / baseline.value, when a baseline is given. */
  ratio?: number;
  /** The issue's target, printed beside the figure, e.g. ">= 70% of bare Hono". */
  target?: string;
  /** Whether the target holds; undefined when there is no target. */
  met?: boolean;
}

export type BenchFile = () => Promise<BenchRow[]>;
