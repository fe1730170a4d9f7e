import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { createLogger } from "../log/logger.ts";
import { createServiceApp } from "./app.ts";
import { createMetrics, LATENCY_BUCKETS } from "./metrics.ts";

describe("metrics registry", () => {
  it("renders gauges and counters from collect callbacks, with and without labels", async () => {
    const metrics = createMetrics();
    let backlog = 3;
    metrics.gauge("outbox_backlog", "Outbox rows not yet published", () => backlog);
    metrics.gauge("dlq_depth", "Messages in the DLQ", async () => [
      { labels: { queue: "flowstate-dev-privacy-svc" }, value: 2 },
      { labels: { queue: 'odd"name\\' }, value: 0 },
    ]);
    metrics.counter("consumer_messages_total", "Messages handled", () => 41);
    backlog = 5;
    const text = await metrics.render();
    assert.match(text, /^# TYPE outbox_backlog gauge\noutbox_backlog 5$/m);
    assert.match(text, /^dlq_depth\{queue="flowstate-dev-privacy-svc"\} 2$/m);
    assert.match(text, /^dlq_depth\{queue="odd\\"name\\\\"\} 0$/m);
    assert.match(text, /^# TYPE consumer_messages_total counter\nconsumer_messages_total 41$/m);
  });

  it("leaves out a source that throws and still serves the rest", async () => {
    const metrics = createMetrics();
    metrics.gauge("broken", "Throws", () => {
      throw new Error("db down");
    });
    metrics.gauge("fine", "Works", () => 1);
    const text = await metrics.render();
    assert.doesNotMatch(text, /^broken/m);
    assert.match(text, /^fine 1$/m);
  });

  it("refuses duplicate and invalid names, and the built-in http names", () => {
    const metrics = createMetrics();
    metrics.gauge("consumer_lag_seconds", "Lag", () => 0);
    assert.throws(() => metrics.gauge("consumer_lag_seconds", "Again", () => 0), /already registered/);
    assert.throws(() => metrics.gauge("bad-name", "Dash", () => 0), /invalid metric name/);
    assert.throws(() => metrics.counter("http_requests_total", "Ours", () => 0), /already registered/);
  });

  it("puts each observation in the first bucket whose bound it does not exceed, cumulatively", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("GET", "/x", 200, 0.004);
    metrics.observeRequest("GET", "/x", 200, 0.005);
    metrics.observeRequest("GET", "/x", 200, 20);
    const text = await metrics.render();
    const bucket = (le: string) => Number(text.match(new RegExp(`le="${le.replace("+", "\\+")}"\\} (\\d+)`))?.[1]);
    assert.equal(bucket("0.001"), 0);
    assert.equal(bucket("0.005"), 2);
    assert.equal(bucket(String(LATENCY_BUCKETS.at(-1))), 2);
    assert.equal(bucket("+Inf"), 3);
    assert.match(text, /http_request_duration_seconds_sum\{method="GET",route="\/x",status="200"\} 20\.009/);
  });

  it("folds non-standard methods into OTHER so a client cannot grow the label set", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("PROPFIND", "(unmatched)", 405, 0.001);
    metrics.observeRequest("BREW", "(unmatched)", 405, 0.001);
    const text = await metrics.render();
    assert.match(text, /^http_requests_total\{method="OTHER",route="\(unmatched\)",status="405"\} 2$/m);
    assert.doesNotMatch(text, /PROPFIND|BREW/);
  });

  it("serves gauges registered by other modules from the app's /metrics", async () => {
    const metrics = createMetrics();
    const app = createServiceApp({
      name: "m",
      logger: createLogger({ service: "m", level: "silent", env: {} }),
      metrics,
    });
    metrics.gauge("consumer_lag_seconds", "Age of the oldest message", () => 1.5);
    const text = await (await app.request("/metrics")).text();
    assert.match(text, /^consumer_lag_seconds 1\.5$/m);
  });
});
