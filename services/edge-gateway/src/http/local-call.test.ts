import assert from "node:assert/strict";
import { defineRoute, type RouteSpec } from "@flowstate/contracts/rest/route";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { startEchoUpstream } from "../../test/echo-upstream.ts";
import { type RunningGateway, startGateway } from "../../test/gateway-harness.ts";
import type { LocalAnswer } from "./local-call.ts";

const ok = { 200: z.object({}) };
const route = (id: string, method: RouteSpec["method"], path: string, extra: Partial<RouteSpec> = {}) =>
  defineRoute({ id, method, path, service: "identity-svc", auth: "public", summary: id, responses: ok, ...extra });
const routes: RouteSpec[] = [
  route("echo.post", "POST", "/v1/echo"),
  route("echo.get", "GET", "/v1/echo/{thing}", { params: z.object({ thing: z.string() }) }),
  route("big", "GET", "/v1/big"),
  route("revoke", "POST", "/v1/revoke"),
  route("tenant", "GET", "/v1/tenants/{id}", { auth: "tenant", params: z.object({ id: z.string() }) }),
  route("offers", "GET", "/v1/not-deployed", { service: "offers-svc" }),
];

/**
 * `gateway.call` (mcp-gateway's way into the pipeline) against the same route over HTTP: what
 * reaches the service and what comes back must be the same, refusals included.
 */
describe("the gateway's in-process call", () => {
  let upstream: Awaited<ReturnType<typeof startEchoUpstream>>;
  let gw: RunningGateway;
  beforeAll(async () => {
    upstream = await startEchoUpstream({
      invalidate: JSON.stringify([{ scope: "account", sub: "usr_0123456789abcdef" }]),
    });
    gw = await startGateway({ identityUrl: upstream.url, routes });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  const overHttp = async (method: string, target: string, headers: Record<string, string> = {}, body?: string) => {
    const res = await fetch(`${gw.url}${target}`, { method, headers, ...(body === undefined ? {} : { body }) });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
  };
  const sameAnswer = (local: LocalAnswer, http: LocalAnswer) => {
    assert.equal(local.status, http.status);
    assert.deepEqual(JSON.parse(local.body.toString()), { ...JSON.parse(http.body.toString()), ...requestIdOf(local) });
    assert.equal(local.headers["content-type"], http.headers["content-type"]);
  };
  // Problems carry their own request id; the rest of the body must match.
  const requestIdOf = (a: LocalAnswer) => {
    const body = JSON.parse(a.body.toString()) as { request_id?: string };
    return body.request_id === undefined ? {} : { request_id: body.request_id };
  };

  it("sends the service what an HTTP client's request would carry, with the caller's address, and relays its answer", async () => {
    const body = JSON.stringify({ hello: "world" });
    const headers = {
      "content-type": "application/json",
      authorization: "Bearer secret",
      "x-request-id": "req_localcall01",
    };
    const http = await overHttp("POST", "/v1/echo?a=1&b=%C3%A9", headers, body);
    const viaHttp = upstream.last();
    const local = await gw.gateway.call({
      method: "POST",
      target: "/v1/echo?a=1&b=%C3%A9",
      headers,
      body: Buffer.from(body),
      address: "203.0.113.7",
    });
    const viaCall = upstream.last();
    assert.notEqual(viaCall, viaHttp);
    assert.equal(local.status, 200);
    assert.deepEqual(local.body, http.body);
    assert.equal(local.headers["x-request-id"], "req_localcall01");
    assert.equal(viaCall.method, "POST");
    assert.equal(viaCall.url, viaHttp.url);
    assert.deepEqual(viaCall.body, viaHttp.body);
    assert.equal(viaCall.headers["content-length"], String(body.length));
    assert.equal(viaCall.headers["content-type"], "application/json");
    assert.equal(viaCall.headers["x-forwarded-for"], "203.0.113.7");
    assert.equal(viaCall.headers.authorization, undefined);
  });

  it("normalises the target as an HTTP client would, so the service sees the same path", async () => {
    await overHttp("GET", "/v1/echo/a%20b/../c%2Fd");
    const viaHttp = upstream.last().url;
    await gw.gateway.call({ method: "GET", target: "/v1/echo/a%20b/../c%2Fd", headers: {}, address: "127.0.0.1" });
    assert.equal(upstream.last().url, viaHttp);
  });

  it("collects a streamed answer whole and applies an invalidation without relaying it", async () => {
    const big = await gw.gateway.call({ method: "GET", target: "/v1/big", headers: {}, address: "127.0.0.1" });
    assert.equal(big.status, 200);
    assert.equal(big.body.length, 1024 * 1024);
    const revoke = await gw.gateway.call({ method: "POST", target: "/v1/revoke", headers: {}, address: "127.0.0.1" });
    assert.equal(revoke.status, 200);
    assert.equal(revoke.headers["flowstate-invalidate"], undefined);
  });

  it("answers refusals with the problem HTTP answers: 401, 405, 503 and, off the registry, 404", async () => {
    for (const [method, target] of [
      ["GET", "/v1/tenants/tnt_x"],
      ["PUT", "/v1/echo"],
      ["GET", "/v1/not-deployed"],
      ["GET", "/v1/nothing-here"],
    ] as const) {
      const local = await gw.gateway.call({ method, target, headers: {}, address: "127.0.0.1" });
      sameAnswer(local, await overHttp(method, target));
      assert.ok(local.status >= 400, `${method} ${target}: ${local.status}`);
    }
    const notAllowed = await gw.gateway.call({ method: "PUT", target: "/v1/echo", headers: {}, address: "127.0.0.1" });
    assert.equal(notAllowed.headers.allow, "POST");
  });

  it("refuses a target naming another origin, and a call abandoned before it starts, sending nothing", async () => {
    const before = upstream.received.length;
    await assert.rejects(
      gw.gateway.call({ method: "GET", target: "//evil.example/v1/echo/x", headers: {}, address: "127.0.0.1" }),
      /not a path/,
    );
    await assert.rejects(
      gw.gateway.call({
        method: "GET",
        target: "/v1/echo/x",
        headers: {},
        address: "127.0.0.1",
        signal: AbortSignal.abort(),
      }),
    );
    assert.equal(upstream.received.length, before);
  });
});
