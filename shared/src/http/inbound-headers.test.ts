import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { acceptableHeaderValue, validTraceparent, validTracestate } from "./inbound-headers.ts";

const good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("inbound header validation", () => {
  it("keeps one well-formed traceparent and drops every other shape", () => {
    assert.equal(validTraceparent(good), good);
    assert.equal(validTraceparent([good]), good);
    for (const bad of [
      "garbage",
      "",
      good.toUpperCase(),
      `${good}-extra`,
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    ]) {
      assert.equal(validTraceparent(bad), undefined, bad);
    }
    assert.equal(validTraceparent([good, good]), undefined, "two traceparent headers");
    assert.equal(validTraceparent(undefined), undefined);
  });

  it("keeps a W3C tracestate list, joining repeated headers, and drops a malformed one", () => {
    assert.equal(
      validTracestate(["congo=t61rcWkgMzE", "rojo=00f067aa0ba902b7"]),
      "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7",
    );
    assert.equal(validTracestate(["vendor@tenant=x , other=y"]), "vendor@tenant=x,other=y");
    for (const bad of ["no-equals", "UPPER=1", "a=", "a=b,c", `k=${"v".repeat(600)}`]) {
      assert.equal(validTracestate([bad]), undefined, bad);
    }
    const many = Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(",");
    assert.equal(validTracestate([many]), undefined);
  });

  it("accepts printable ASCII values up to 4096 characters only", () => {
    assert.ok(acceptableHeaderValue("Mozilla/5.0 (X11; Linux x86_64)\tok"));
    assert.ok(!acceptableHeaderValue("caf\u00e9"));
    assert.ok(!acceptableHeaderValue("a\u0000b"));
    assert.ok(!acceptableHeaderValue("x".repeat(4097)));
  });
});
