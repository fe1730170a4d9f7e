import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { DomainError } from "../errors/domain-error.ts";
import { appWithLogs } from "./testdata.ts";

describe("request log", () => {
  it("writes one info line per request with method, route pattern, status, duration and request id", async () => {
    const { app, logs } = appWithLogs();
    app.get("/v1/tenants/:id", (c) => c.json({}));
    const res = await app.request("/v1/tenants/tnt_0123456789");
    const lines = logs.lines.filter((l) => l.msg === "request");
    assert.equal(lines.length, 1);
    const line = lines[0]!;
    assert.equal(line.level, "info");
    assert.equal(line.method, "GET");
    assert.equal(line.route, "/v1/tenants/:id");
    assert.equal(line.status, 200);
    assert.equal(typeof line.duration_ms, "number");
    assert.equal(line.request_id, res.headers.get("x-request-id"));
  });

  it("logs 4xx at info, not as errors", async () => {
    const { app, logs } = appWithLogs();
    app.get("/missing", () => {
      throw new DomainError("not_found", "NOT_FOUND", "tenant was not found");
    });
    await app.request("/missing");
    await app.request("/unknown");
    assert.deepEqual(
      logs.lines.map((l) => [l.level, l.status]),
      [
        ["info", 404],
        ["info", 404],
      ],
    );
  });

  it("logs a 5xx once, at error, with the cause", async () => {
    const { app, logs } = appWithLogs();
    app.get("/boom", () => {
      throw new Error("connection reset");
    });
    await app.request("/boom");
    assert.equal(logs.lines.length, 1);
    assert.equal(logs.lines[0]!.level, "error");
    assert.equal((logs.lines[0]!.err as { message: string }).message, "connection reset");
  });

  it("keeps probes out of info-level logs", async () => {
    const { app, logs } = appWithLogs({ level: "info" });
    await app.request("/healthz");
    await app.request("/metrics");
    await app.request("/readyz");
    assert.equal(logs.lines.length, 0);
  });
});
