import assert from "node:assert/strict";
import { defineRoute, type RouteSpec } from "@flowstate/contracts/rest/route";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { startEchoUpstream } from "../../test/echo-upstream.ts";
import { type RunningGateway, startGateway } from "../../test/gateway-harness.ts";

const ok = { 200: z.object({}) };
const routes: RouteSpec[] = [
  defineRoute({
    id: "echo.post",
    method: "POST",
    path: "/v1/echo",
    service: "identity-svc",
    auth: "public",
    summary: "echo",
    responses: ok,
  }),
  defineRoute({
    id: "echo.get",
    method: "GET",
    path: "/v1/echo/{thing}",
    service: "identity-svc",
    auth: "public",
    summary: "echo",
    params: z.object({ thing: z.string() }),
    responses: ok,
  }),
  defineRoute({
    id: "big",
    method: "GET",
    path: "/v1/big",
    service: "identity-svc",
    auth: "public",
    summary: "big",
    responses: ok,
  }),
  defineRoute({
    id: "revoke",
    method: "POST",
    path: "/v1/revoke",
    service: "identity-svc",
    auth: "public",
    summary: "revoke",
    responses: ok,
  }),
  defineRoute({
    id: "cached",
    method: "GET",
    path: "/v1/cached",
    service: "identity-svc",
    auth: "public",
    summary: "cached",
    responses: ok,
  }),
  defineRoute({
    id: "cookies",
    method: "GET",
    path: "/v1/cookies",
    service: "identity-svc",
    auth: "public",
    summary: "c",
    responses: ok,
  }),
  defineRoute({
    id: "offers",
    method: "GET",
    path: "/v1/not-deployed",
    service: "offers-svc",
    auth: "public",
    summary: "o",
    responses: ok,
  }),
];

async function problemOf(res: Response) {
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(body.status, res.status);
  assert.equal(typeof body.request_id, "string");
  return body;
}

describe("the gateway's proxy", () => {
  let upstream: Awaited<ReturnType<typeof startEchoUpstream>>;
  let gw: RunningGateway;
  beforeAll(async () => {
    upstream = await startEchoUpstream({
      invalidate: JSON.stringify([{ scope: "account", sub: "usr_0123456789abcdef" }]),
    });
    gw = await startGateway({ identityUrl: upstream.url, routes, settings: { BODY_LIMIT_BYTES: 64 * 1024 } });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  it("streams the body and query through, and never forwards credentials, cookies or a client-made identity", async () => {
    const body = JSON.stringify({ hello: "world", n: [1, 2, 3] });
    const res = await fetch(`${gw.url}/v1/echo?x=1&y=%20z`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer a.b.c",
        cookie: "session=secret",
        "x-api-key": "fs_key",
        "flowstate-identity": "v1.0.forged.sig",
        "flowstate-invalidate": "[]",
        "x-request-id": "client-request-0001",
        "x-custom": "kept",
      },
      body,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-request-id"), "client-request-0001");
    const got = upstream.last();
    assert.equal(got.method, "POST");
    assert.equal(got.url, "/v1/echo?x=1&y=%20z");
    assert.equal(got.body.toString(), body);
    for (const h of ["authorization", "cookie", "x-api-key", "flowstate-identity", "flowstate-invalidate"])
      assert.equal(got.headers[h], undefined, h);
    assert.equal(got.headers["x-request-id"], "client-request-0001");
    assert.equal(got.headers["x-custom"], "kept");
    assert.equal(got.headers["content-length"], String(Buffer.byteLength(body)));
  });

  it("forwards a chunked upload with its length", async () => {
    const parts = ['{"a":', '"', "x".repeat(5000), '"}'];
    const stream = new ReadableStream({
      start(controller) {
        for (const p of parts) controller.enqueue(new TextEncoder().encode(p));
        controller.close();
      },
    });
    const res = await fetch(`${gw.url}/v1/echo`, {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "content-type": "application/json" },
    } as RequestInit);
    assert.equal(res.status, 200);
    assert.equal(upstream.last().body.toString(), parts.join(""));
  });

  it("replaces a service's HSTS and nosniff with the gateway's, keeps a public route's own Cache-Control, adds no-store otherwise", async () => {
    const cached = await fetch(`${gw.url}/v1/cached`);
    await cached.arrayBuffer();
    assert.equal(cached.headers.get("cache-control"), "public, max-age=60");
    assert.equal(cached.headers.get("x-content-type-options"), "nosniff");
    assert.equal(cached.headers.get("strict-transport-security"), "max-age=63072000; includeSubDomains");
    const plain = await fetch(`${gw.url}/v1/echo/x`);
    await plain.arrayBuffer();
    assert.equal(plain.headers.get("cache-control"), "no-store");
    assert.equal(plain.headers.get("x-content-type-options"), "nosniff");
  });

  it("relays a large answer intact", async () => {
    const res = await fetch(`${gw.url}/v1/big`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(bytes.length, 1024 * 1024);
    assert.ok(bytes.every((b) => b === 7));
  });

  it("strips the invalidation header from the answer it relays", async () => {
    const res = await fetch(`${gw.url}/v1/revoke`, { method: "POST" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("flowstate-invalidate"), null);
    assert.deepEqual(await res.json(), { revoked: true });
  });

  it("keeps repeated Set-Cookie headers apart and drops hop-by-hop ones", async () => {
    const res = await fetch(`${gw.url}/v1/cookies`);
    assert.deepEqual(res.headers.getSetCookie(), ["a=1; HttpOnly", "b=2; HttpOnly"]);
    assert.equal(await res.text(), "cookies");
  });

  it("answers an unknown route with 404 and a known path with the wrong method with 405 and Allow", async () => {
    const missing = await fetch(`${gw.url}/v1/nothing-here`);
    assert.equal(missing.status, 404);
    assert.equal((await problemOf(missing)).code, "NOT_FOUND");
    const wrong = await fetch(`${gw.url}/v1/echo`, { method: "DELETE" });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "POST");
    assert.equal((await problemOf(wrong)).code, "METHOD_NOT_ALLOWED");
  });

  it("refuses a body over the limit with 413, declared or chunked, before it reaches the service", async () => {
    const before = upstream.received.length;
    const declared = await fetch(`${gw.url}/v1/echo`, {
      method: "POST",
      body: "x".repeat(64 * 1024 + 1),
      headers: { "content-type": "application/json" },
    });
    assert.equal(declared.status, 413);
    assert.equal((await problemOf(declared)).code, "PAYLOAD_TOO_LARGE");
    const big = new TextEncoder().encode("y".repeat(40 * 1024));
    const chunked = await fetch(`${gw.url}/v1/echo`, {
      method: "POST",
      duplex: "half",
      body: new ReadableStream({
        start(c) {
          c.enqueue(big);
          c.enqueue(big);
          c.close();
        },
      }),
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.equal((await problemOf(chunked)).code, "PAYLOAD_TOO_LARGE");
    assert.equal(upstream.received.length, before);
  });

  it("answers 503 for a route whose service is not deployed", async () => {
    const res = await fetch(`${gw.url}/v1/not-deployed`);
    assert.equal(res.status, 503);
    assert.equal((await problemOf(res)).code, "SERVICE_UNAVAILABLE");
    assert.ok(res.headers.get("retry-after"));
  });

  it("answers 503 UPSTREAM_UNAVAILABLE with Retry-After when the service does not answer", async () => {
    const dead = await startEchoUpstream();
    await dead.close();
    const lonely = await startGateway({ identityUrl: dead.url, routes });
    try {
      const res = await fetch(`${lonely.url}/v1/echo/x`);
      assert.equal(res.status, 503);
      const body = await problemOf(res);
      assert.equal(body.code, "UPSTREAM_UNAVAILABLE");
      assert.equal(res.headers.get("retry-after"), "1");
      assert.doesNotMatch(JSON.stringify(body), /ECONNREFUSED|127\.0\.0\.1/);
    } finally {
      await lonely.close();
    }
  });

  it("believes X-Forwarded-For only from a configured proxy: per-client limits and the address services see", async () => {
    const settings = { RATE_LIMIT_ANONYMOUS_PER_SEC: 0.1, RATE_LIMIT_ANONYMOUS_BURST: 2 };
    const send = (url: string, client: string) =>
      fetch(`${url}/v1/echo/x`, { headers: { "x-forwarded-for": client } }).then((r) => r.status);
    // Untrusted peer: every invented address shares the peer's one bucket, and is not passed on.
    const open = await startGateway({ identityUrl: upstream.url, routes, settings });
    try {
      const statuses = [];
      for (const client of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
        statuses.push(await send(open.url, client));
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal(upstream.last().headers["x-forwarded-for"], "127.0.0.1");
    } finally {
      await open.close();
    }
    // Behind a trusted load balancer (here: loopback), each client has its own bucket and services see it.
    const behind = await startGateway({
      identityUrl: upstream.url,
      routes,
      settings: { ...settings, TRUSTED_PROXIES: ["127.0.0.1"] },
    });
    try {
      const statuses = [];
      for (const client of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
        statuses.push(await send(behind.url, client));
      assert.deepEqual(statuses, [200, 200, 200]);
      assert.equal(upstream.last().headers["x-forwarded-for"], "198.51.100.3");
      // A client's own claim further left is not believed: the bucket is the one the proxy vouched for.
      assert.equal(await send(behind.url, "203.0.113.50, 198.51.100.1"), 200);
      assert.equal(await send(behind.url, "203.0.113.51, 198.51.100.1"), 429);
    } finally {
      await behind.close();
    }
  });

  it("limits unauthenticated calls per client address with 429 and Retry-After", async () => {
    const limited = await startGateway({
      identityUrl: upstream.url,
      routes,
      settings: { RATE_LIMIT_ANONYMOUS_PER_SEC: 0.1, RATE_LIMIT_ANONYMOUS_BURST: 2 },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${limited.url}/v1/echo/x`)).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      const res = await fetch(`${limited.url}/v1/echo/x`);
      assert.equal((await problemOf(res)).code, "RATE_LIMITED");
      assert.ok(Number(res.headers.get("retry-after")) >= 1);
    } finally {
      await limited.close();
    }
  });
});
