import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { unparseableRequests } from "../testing/malformed-http.ts";
import { type RawAnswer, rawRequest } from "../testing/raw-http.ts";
import { createServiceApp } from "./app.ts";
import { type RunningServer, serve } from "./serve.ts";

function assertProblem(answer: RawAnswer, status: number, code: string, what: string) {
  assert.equal(answer.status, status, `${what}: ${answer.body}`);
  assert.equal(answer.headers["content-type"], "application/problem+json", what);
  const body = JSON.parse(answer.body) as { status: number; code: string; request_id: string };
  assert.equal(body.status, status, what);
  assert.equal(body.code, code, what);
  assert.match(body.request_id, /^req_/, what);
  assert.equal(answer.headers["x-request-id"], body.request_id, what);
  return body;
}

describe("requests that never reach the app", () => {
  let server: RunningServer;
  let failing: RunningServer;
  const logs = captureLogs();
  const logger = createLogger({ service: "client-errors-test", destination: logs.stream });

  beforeAll(async () => {
    const app = createServiceApp({ name: "client-errors-test", logger });
    const headers = { "x-content-type-options": "nosniff", "strict-transport-security": "max-age=1" };
    server = await serve(app, { host: "127.0.0.1", port: 0, logger, handleSignals: false, headers });
    // An app whose fetch rejects (a bug: onError answers everything a Hono app throws).
    failing = await serve(
      { fetch: () => Promise.reject(new Error("boom")) },
      {
        host: "127.0.0.1",
        port: 0,
        logger,
        handleSignals: false,
      },
    );
  });
  afterAll(async () => {
    await server.shutdown("test done");
    await failing.shutdown("test done");
  });

  it("answers every unparseable request with 400 BAD_REQUEST problem+json, with the server's fixed headers", async () => {
    for (const [what, bytes] of unparseableRequests("GET", "/healthz")) {
      const answer = await rawRequest(server.url, bytes);
      assertProblem(answer, 400, "BAD_REQUEST", what);
      assert.equal(answer.headers["x-content-type-options"], "nosniff", what);
      assert.equal(answer.headers["strict-transport-security"], "max-age=1", what);
    }
    // One log line each, naming the rule or the parser's code, never the request's bytes.
    const refused = logs.lines.filter((l) => l.msg === "malformed request refused");
    assert.ok(refused.length >= unparseableRequests("GET", "/healthz").length);
    assert.ok(!logs.lines.some((l) => JSON.stringify(l).includes("NOT AN HTTP REQUEST")));
  });

  it("keeps Node's specific codes for oversized headers", async () => {
    const answer = await rawRequest(
      server.url,
      `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    assertProblem(answer, 431, "HEADERS_TOO_LARGE", "20 kB header");
  });

  it("still serves well-formed requests, absolute-form included", async () => {
    const answer = await rawRequest(
      server.url,
      "GET http://other.example/healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    );
    assert.equal(answer.status, 200);
  });

  it("answers an app that rejects with 500 INTERNAL_ERROR problem+json, not an empty 500", async () => {
    const answer = await rawRequest(failing.url, "GET /x HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    assertProblem(answer, 500, "INTERNAL_ERROR", "rejecting fetch");
    assert.doesNotMatch(answer.body, /boom/);
  });
});
