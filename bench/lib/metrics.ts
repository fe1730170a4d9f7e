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
