import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { newRequestId, requestIdFrom } from "./request-id.ts";
import { appWithLogs } from "./testdata.ts";

describe("request id", () => {
  it("generates a req_ id, echoes it and exposes it to handlers and their logger", async () => {
    const { app, logs } = appWithLogs();
    app.get("/who", (c) => {
      c.get("logger").info("inside");
      return c.json({ id: c.get("requestId") });
    });
    const res = await app.request("/who");
    const id = res.headers.get("x-request-id");
    assert.match(id ?? "", /^req_[A-Za-z0-9_-]{16}$/);
    assert.deepEqual(await res.json(), { id });
    assert.equal(logs.lines.find((l) => l.msg === "inside")?.request_id, id);
  });

  it("adopts a safe incoming x-request-id so one id follows the request across services", async () => {
    const { app } = appWithLogs();
    const res = await app.request("/healthz", { headers: { "x-request-id": "gw-01HZX3K5:abc.def" } });
    assert.equal(res.headers.get("x-request-id"), "gw-01HZX3K5:abc.def");
  });

  it("replaces an incoming id that is unsafe to log or echo", async () => {
    const { app } = appWithLogs();
    for (const unsafe of ["has space in it", 'quote"injection', "short", "x".repeat(129), "line\\nbreak-here"]) {
      const res = await app.request("/healthz", { headers: { "x-request-id": unsafe } });
      assert.match(res.headers.get("x-request-id") ?? "", /^req_/, unsafe);
    }
  });

  it("mints distinct ids", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newRequestId()));
    assert.equal(ids.size, 10_000);
    assert.equal(requestIdFrom(undefined).startsWith("req_"), true);
  });
});
