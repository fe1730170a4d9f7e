import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { appWithLogs } from "./testdata.ts";

describe("probes", () => {
  it("answers /healthz without running readiness checks", async () => {
    let checked = 0;
    const { app } = appWithLogs({ readiness: { database: async () => void checked++ } });
    const res = await app.request("/healthz");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "ok" });
    assert.equal(checked, 0);
  });

  it("answers /readyz 200 with each check's status when all pass", async () => {
    const { app } = appWithLogs({ readiness: { database: async () => {}, queue: async () => {} } });
    const res = await app.request("/readyz");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "ok", checks: { database: "ok", queue: "ok" } });
  });

  it("answers /readyz 503 naming the failed and timed-out checks, without their error text", async () => {
    const { app, logs } = appWithLogs({
      readinessTimeoutMs: 50,
      readiness: {
        database: async () => {
          throw new Error("password authentication failed for user postgres");
        },
        queue: () => new Promise(() => {}),
        bus: async () => {},
      },
    });
    const res = await app.request("/readyz");
    const text = await res.text();
    assert.equal(res.status, 503);
    assert.deepEqual(JSON.parse(text), {
      status: "unavailable",
      checks: { database: "failed", queue: "timeout", bus: "ok" },
    });
    assert.doesNotMatch(text, /password|postgres/);
    const failure = logs.lines.find((l) => l.msg === "readiness check failed");
    assert.equal(failure?.check, "database");
  });

  it("serves request counts by route pattern and latency histograms on /metrics", async () => {
    const { app } = appWithLogs();
    app.get("/v1/tenants/:id", (c) => c.json({ id: c.req.param("id") }));
    await app.request("/v1/tenants/tnt_aaaaaaaaaa");
    await app.request("/v1/tenants/tnt_bbbbbbbbbb");
    await app.request("/v1/tenants/tnt_bbbbbbbbbb", { method: "DELETE" });
    await app.request("/no/such/path");
    const res = await app.request("/metrics");
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.match(text, /^http_requests_total\{method="GET",route="\/v1\/tenants\/:id",status="200"\} 2$/m);
    assert.match(text, /^http_requests_total\{method="DELETE",route="\(unmatched\)",status="405"\} 1$/m);
    assert.match(text, /^http_requests_total\{method="GET",route="\(unmatched\)",status="404"\} 1$/m);
    assert.match(
      text,
      /^http_request_duration_seconds_bucket\{method="GET",route="\/v1\/tenants\/:id",status="200",le="\+Inf"\} 2$/m,
    );
    assert.match(
      text,
      /^http_request_duration_seconds_count\{method="GET",route="\/v1\/tenants\/:id",status="200"\} 2$/m,
    );
    assert.doesNotMatch(text, /tnt_/);
  });
});
