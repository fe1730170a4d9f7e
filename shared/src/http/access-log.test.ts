import assert from "node:assert/strict";
import { createServer } from "node:http";
import { describe, it } from "vitest";
import { DomainError } from "../errors/domain-error.ts";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { recordRequest, writeProblem } from "./access-log.ts";
import { HttpProblem } from "./http-problem.ts";
import { createMetrics } from "./metrics.ts";

function recorder() {
  const logs = captureLogs();
  const logger = createLogger({ service: "access-log-test", level: "debug", destination: logs.stream });
  const metrics = createMetrics();
  const record = (status: number, error?: unknown, route = "/v1/x/:id", successLevel?: "info" | "debug") =>
    recordRequest(
      logger,
      metrics,
      { requestId: "req_t", method: "GET", route, status, started: performance.now(), error },
      successLevel,
    );
  return { logs, metrics, record };
}

describe("recordRequest", () => {
  it("logs an exception behind a 5xx as an error with its cause, a deliberate 5xx as a warning, a 4xx as info", () => {
    const { logs, record } = recorder();
    record(500, new Error("boom"));
    record(503, new HttpProblem("SERVICE_UNAVAILABLE", "draining"));
    record(404, new DomainError("not_found", "NOT_FOUND", "x"));
    assert.deepEqual(
      logs.lines.map((l) => [l.level, l.status]),
      [
        ["error", 500],
        ["warn", 503],
        ["info", 404],
      ],
    );
    assert.match((logs.lines[0]!.err as { message: string }).message, /boom/);
  });

  it("logs successes at info, or at the caller's level, and probes at debug; counts every request", async () => {
    const { logs, metrics, record } = recorder();
    record(200);
    record(200, undefined, "/v1/x/:id", "debug");
    record(200, undefined, "/healthz");
    assert.deepEqual(
      logs.lines.map((l) => l.level),
      ["info", "debug", "debug"],
    );
    assert.match(await metrics.render(), /http_requests_total\{method="GET",route="\/v1\/x\/:id",status="200"\} 2/);
  });
});

describe("writeProblem", () => {
  it("answers a thrown error as the one problem+json on a Node response", async () => {
    const server = createServer((_req, res) => {
      writeProblem(res, new DomainError("rate_limited", "RATE_LIMITED", "slow down", { retryAfter: 3 }), "req_w");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      assert.equal(res.status, 429);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.equal(res.headers.get("retry-after"), "3");
      assert.equal(res.headers.get("x-request-id"), "req_w");
      const body = (await res.json()) as { code: string; request_id: string };
      assert.deepEqual([body.code, body.request_id], ["RATE_LIMITED", "req_w"]);
    } finally {
      server.close();
    }
  });
});
