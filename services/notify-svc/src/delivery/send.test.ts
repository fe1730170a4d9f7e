import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, it } from "vitest";
import { post } from "./send.ts";

/** A receiver on loopback whose answer each test chooses by path. */
let server: Server;
let base: string;
let reached: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    reached.push(req.url ?? "");
    req.resume();
    if (req.url === "/redirect") res.writeHead(307, { location: "/target" }).end();
    else if (req.url === "/slow") setTimeout(() => res.writeHead(204).end(), 2_000);
    else if (req.url === "/error") res.writeHead(500).end("receiver's own words");
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const local = { allowHttp: true, allowedAddresses: new Set(["127.0.0.1"]), timeoutMs: 500 };

describe("one delivery attempt", () => {
  it("follows no redirect: a 3xx is a failure and the target is never asked", async () => {
    reached = [];
    assert.deepEqual(await post(new URL(`${base}/redirect`), {}, "{}", local), {
      ok: false,
      status: 307,
      error: "redirect",
    });
    assert.deepEqual(reached, ["/redirect"]);
  });

  it("gives up at the timeout", async () => {
    const started = Date.now();
    const r = await post(new URL(`${base}/slow`), {}, "{}", local);
    assert.deepEqual(r, { ok: false, status: null, error: "timeout" });
    assert.ok(Date.now() - started < 1_500);
  });

  it("logs a stable word for an error answer, never the receiver's text", async () => {
    assert.deepEqual(await post(new URL(`${base}/error`), {}, "{}", local), {
      ok: false,
      status: 500,
      error: "status",
    });
  });

  it("checks the address again at each attempt: loopback refused without the local exception, http refused without the flag", async () => {
    reached = [];
    const strict = { allowHttp: true, allowedAddresses: new Set<string>(), timeoutMs: 500 };
    assert.deepEqual(await post(new URL(`${base}/ok`), {}, "{}", strict), {
      ok: false,
      status: null,
      error: "address_not_allowed",
    });
    assert.deepEqual(await post(new URL(`${base}/ok`), {}, "{}", { ...local, allowHttp: false }), {
      ok: false,
      status: null,
      error: "https_required",
    });
    assert.deepEqual(reached, []);
    assert.deepEqual(await post(new URL(`${base}/ok`), {}, "{}", local), { ok: true, status: 204 });
  });
});
