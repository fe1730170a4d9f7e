/**
 * A counter's value on a service's Prometheus text page (`GET /metrics`), for the benches that
 * count what a service did in a window (AssumeRole calls, PutEvents requests). A counter the page
 * declares (`# TYPE <name> counter`) but has not counted yet is 0; one the page does not know at
 * all is NaN, so a renamed metric or the wrong page shows in the row rather than as a quiet zero.
 *
 * @example
 * const before = await counterValue(`${connectorUrl}/metrics`, "seller_assume_role_total");
 */
export async function counterValue(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const sample = new RegExp(`^${name}(?:\\{\\})? (\\S+)$`, "m").exec(text);
  if (sample) return Number(sample[1]);
  return text.includes(`# TYPE ${name} counter`) ? 0 : Number.NaN;
}

/**
 * Waits until a counter has held its value for `quietMs` (at most `maxMs`), and returns it: work
 * a service finishes after the calls that caused it (a publisher's last batch) then counts before
 * the next window, not inside it.
 *
 * @example
 * await settledCounter(`${mcpUrl}/metrics`, "mcp_audit_published_total", 300);
 */
export async function settledCounter(metricsUrl: string, name: string, quietMs: number, maxMs = 5_000) {
  const until = Date.now() + maxMs;
  let value = await counterValue(metricsUrl, name);
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await counterValue(metricsUrl, name);
    if (now !== value) [value, since] = [now, Date.now()];
  }
  return value;
}
