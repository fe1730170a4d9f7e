import type { BenchRow } from "./types.ts";

const fmt = (n: number | undefined, digits = 2) =>
  n === undefined || Number.isNaN(n)
    ? ""
    : Math.abs(n) >= 100
      ? Math.round(n).toLocaleString("en-US")
      : n.toFixed(digits);

/**
 * Renders rows as an aligned text table: name, value, unit, baseline, ratio, target, met.
 *
 * @example
 * console.log(renderTable([{ name: "x", value: 1, unit: "ms" }]));
 */
export function renderTable(rows: BenchRow[]): string {
  const header = ["name", "value", "unit", "baseline", "ratio", "target", "met"];
  const cells = rows.map((r) => [
    r.name,
    fmt(r.value),
    r.unit,
    r.baseline ? `${fmt(r.baseline.value)} (${r.baseline.name})` : "",
    r.ratio === undefined ? "" : `${(r.ratio * 100).toFixed(1)}%`,
    r.target ?? "",
    r.met === undefined ? "" : r.met ? "yes" : "NO",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const numeric = new Set([1, 4]);
  const line = (c: string[]) =>
    c
      .map((v, i) => (numeric.has(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}
