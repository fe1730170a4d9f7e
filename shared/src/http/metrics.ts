/**
 * A deliberately tiny Prometheus registry (text exposition format 0.0.4). prom-client would work,
 * but the request hot path here is one Map lookup and a bucket scan, and module code registers
 * values through collect callbacks read only when /metrics is scraped.
 * https://prometheus.io/docs/instrumenting/exposition_formats/
 */
export type Labels = Record<string, string>;
export type Sample = { labels?: Labels; value: number };
export type Collect = () => number | Sample[] | Promise<number | Sample[]>;

interface Collected {
  name: string;
  help: string;
  type: "gauge" | "counter";
  collect: Collect;
}

/** Latency buckets in seconds; fine below 100 ms where healthy services live. */
export const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: string; // pre-rendered `method="GET",route="/x",status="200"`
  count: number;
  sum: number;
  buckets: Float64Array; // non-cumulative counts per bucket, the last one is +Inf
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const renderLabels = (labels: Labels | undefined) =>
  labels
    ? Object.entries(labels)
        .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
        .join(",")
    : "";
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

const METHOD_INDEX: Record<string, number> = { GET: 0, HEAD: 1, POST: 2, PUT: 3, PATCH: 4, DELETE: 5, OPTIONS: 6 };
const OTHER = 15;

/** Prometheus scrapes time out at 10 s by default; a slow gauge must not take the whole scrape down. */
export const COLLECT_TIMEOUT_MS = 2000;

async function withTimeout(collect: Collect): Promise<number | Sample[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(collect),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("collect timed out")), COLLECT_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class MetricsRegistry {
  readonly #collected = new Map<string, Collected>();
  readonly #http = new Map<string, Map<number, Series>>();

  /**
   * Registers a gauge read at scrape time. A callback that throws or takes longer than
   * COLLECT_TIMEOUT_MS is left out of that scrape (which still succeeds), so one broken source
   * cannot hide the others.
   *
   * @example
   * metrics.gauge("outbox_backlog", "Outbox rows not yet published", async () => countUnpublished(em));
   * metrics.gauge("dlq_depth", "Messages in the DLQ", async () => [{ labels: { queue }, value: depth }]);
   */
  gauge(name: string, help: string, collect: Collect): void {
    this.#register({ name, help, type: "gauge", collect });
  }

  /** Registers a monotonically increasing total read at scrape time (keep the count yourself). */
  counter(name: string, help: string, collect: Collect): void {
    this.#register({ name, help, type: "counter", collect });
  }

  #register(metric: Collected): void {
    if (!NAME.test(metric.name)) throw new Error(`invalid metric name ${metric.name}`);
    if (this.#collected.has(metric.name) || metric.name.startsWith("http_request")) {
      throw new Error(`metric ${metric.name} is already registered`);
    }
    this.#collected.set(metric.name, metric);
  }

  /**
   * Hot path: one request observed. Label values are bounded: the route pattern (not the raw
   * path), the status, and the method folded to OTHER when it is not a standard one. Series are
   * found by route, then by a number built from status and method, so no key string is built.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.#http.get(route);
    if (!byRoute) {
      byRoute = new Map();
      this.#http.set(route, byRoute);
    }
    const methodIndex = METHOD_INDEX[method] ?? OTHER;
    const key = status * 16 + methodIndex;
    let series = byRoute.get(key);
    if (!series) {
      const label = methodIndex === OTHER ? "OTHER" : method;
      series = {
        labels: renderLabels({ method: label, route, status: String(status) }),
        count: 0,
        sum: 0,
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
      };
      byRoute.set(key, series);
    }
    series.count++;
    series.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    series.buckets[i]!++;
  }

  /** The whole exposition, as served by GET /metrics. */
  async render(): Promise<string> {
    const out: string[] = [];
    this.#renderHttp(out);
    const results = await Promise.allSettled(
      [...this.#collected.values()].map(async (m) => [m, await withTimeout(m.collect)] as const),
    );
    for (const result of results) {
      if (result.status === "rejected") continue;
      const [metric, value] = result.value;
      out.push(`# HELP ${metric.name} ${metric.help}`, `# TYPE ${metric.name} ${metric.type}`);
      const samples = typeof value === "number" ? [{ value }] : value;
      for (const s of samples) {
        const labels = renderLabels(s.labels);
        out.push(`${metric.name}${labels ? `{${labels}}` : ""} ${s.value}`);
      }
    }
    return `${out.join("\n")}\n`;
  }

  #renderHttp(out: string[]): void {
    out.push(
      "# HELP http_requests_total HTTP requests by method, route pattern and status",
      "# TYPE http_requests_total counter",
    );
    const all = [...this.#http.values()].flatMap((byRoute) => [...byRoute.values()]);
    for (const s of all) out.push(`http_requests_total{${s.labels}} ${s.count}`);
    out.push(
      "# HELP http_request_duration_seconds HTTP request latency by method, route pattern and status",
      "# TYPE http_request_duration_seconds histogram",
    );
    for (const s of all) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        out.push(`http_request_duration_seconds_bucket{${s.labels},le="${le}"} ${cumulative}`);
      });
      out.push(
        `http_request_duration_seconds_bucket{${s.labels},le="+Inf"} ${s.count}`,
        `http_request_duration_seconds_sum{${s.labels}} ${s.sum}`,
        `http_request_duration_seconds_count{${s.labels}} ${s.count}`,
      );
    }
  }
}

/**
 * @example
 * const metrics = createMetrics();
 * startRelay({ ..., metrics });                       // registers outbox_backlog
 * const app = createServiceApp({ name, logger, metrics });
 */
export const createMetrics = () => new MetricsRegistry();
