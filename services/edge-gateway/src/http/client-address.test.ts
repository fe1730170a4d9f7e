import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { describe, it } from "vitest";
import { clientAddress, trustedProxies } from "./client-address.ts";

const req = (peer: string, xff?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: xff === undefined ? {} : { "x-forwarded-for": xff },
  }) as IncomingMessage;

describe("the client address", () => {
  const lb = trustedProxies(["10.0.0.0/16", "2001:db8::/32"]);

  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    assert.equal(clientAddress(req("203.0.113.9", "1.2.3.4"), undefined), "203.0.113.9");
    assert.equal(clientAddress(req("203.0.113.9", "1.2.3.4"), trustedProxies([])), "203.0.113.9");
    assert.equal(clientAddress(req("::ffff:203.0.113.9"), undefined), "203.0.113.9");
  });

  it("is the peer when the peer is not a trusted proxy, even if it sends X-Forwarded-For", () => {
    assert.equal(clientAddress(req("198.51.100.7", "10.0.0.1"), lb), "198.51.100.7");
  });

  it("is the first address from the right that a trusted proxy did not add, behind a trusted proxy", () => {
    assert.equal(clientAddress(req("10.0.1.5", "198.51.100.7"), lb), "198.51.100.7");
    // The client's own claim (left) is never believed; the load balancer's entry (right) is.
    assert.equal(clientAddress(req("10.0.1.5", "1.2.3.4, 198.51.100.7"), lb), "198.51.100.7");
    // Through two trusted hops.
    assert.equal(clientAddress(req("::ffff:10.0.1.5", "198.51.100.7, 10.0.2.2"), lb), "198.51.100.7");
    assert.equal(clientAddress(req("2001:db8::1", "2001:db8::2, 2001:db8::3"), lb), "2001:db8::2");
    // Garbage stops the walk at the last address a trusted proxy vouched for.
    assert.equal(clientAddress(req("10.0.1.5", "not-an-ip"), lb), "10.0.1.5");
    assert.equal(clientAddress(req("10.0.1.5"), lb), "10.0.1.5");
  });

  it("refuses a configuration entry that is not an address or a CIDR block", () => {
    assert.throws(() => trustedProxies(["10.0.0.0/33"]), /prefix/);
    assert.throws(() => trustedProxies(["lb.internal"]), /not an address/);
  });
});
