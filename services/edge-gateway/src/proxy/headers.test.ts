import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { deviceCookieHeader, upstreamHeaders } from "./headers.ts";

const pairs = (flat: string[]) => {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
};

describe("proxy headers", () => {
  it("never forwards the caller's credentials, a forged identity, or hop-by-hop headers", () => {
    const raw = [
      "Host",
      "gw",
      "Authorization",
      "Bearer secret",
      "Cookie",
      "s=1",
      "X-Api-Key",
      "k",
      "Flowstate-Identity",
      "v1.forged",
      "Connection",
      "keep-alive, X-Secret-Hop",
      "X-Secret-Hop",
      "1",
      "Keep-Alive",
      "timeout=5",
      "TE",
      "trailers",
      "Transfer-Encoding",
      "chunked",
      "Upgrade",
      "h2c",
      "Proxy-Authorization",
      "Basic x",
      "X-Request-Id",
      "client-chosen",
      "Content-Type",
      "application/json",
      "Accept",
      "*/*",
    ];
    const out = pairs(upstreamHeaders(raw, ["flowstate-identity", "v1.signed", "x-request-id", "req_1"]));
    assert.deepEqual(out, [
      ["content-type", "application/json"],
      ["accept", "*/*"],
      ["flowstate-identity", "v1.signed"],
      ["x-request-id", "req_1"],
    ]);
  });

  it("drops values that are not printable ASCII, and trace headers that are not W3C trace context", () => {
    const good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const out = (raw: string[]) => pairs(upstreamHeaders(raw, []));
    assert.deepEqual(out(["User-Agent", "caf\u00e9", "X-Ok", "fine", "traceparent", "garbage", "tracestate", "a=b"]), [
      ["x-ok", "fine"],
    ]);
    assert.deepEqual(out(["traceparent", good, "tracestate", "a=b", "tracestate", "c=d"]), [
      ["traceparent", good],
      ["tracestate", "a=b,c=d"],
    ]);
    assert.deepEqual(out(["traceparent", good, "traceparent", good]), [], "two traceparent headers");
  });

  it("passes on identity-svc's device cookie alone, and only when well-formed", () => {
    const token = `dvt_${"a".repeat(43)}`;
    assert.deepEqual(deviceCookieHeader(`s=1; __Host-flowstate-device=${token}; t=2`), [
      "cookie",
      `__Host-flowstate-device=${token}`,
    ]);
    assert.deepEqual(deviceCookieHeader("s=1; t=2"), []);
    assert.deepEqual(deviceCookieHeader("__Host-flowstate-device=dvt_x; s=1"), []);
    assert.deepEqual(deviceCookieHeader(undefined), []);
  });
});
