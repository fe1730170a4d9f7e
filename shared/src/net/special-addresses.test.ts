import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { isSpecialUse } from "./special-addresses.ts";

describe("isSpecialUse", () => {
  it("refuses loopback, private, link-local, CGNAT, documentation, multicast and reserved IPv4", () => {
    for (const a of [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "192.0.2.7",
      "198.18.0.1",
      "224.0.0.251",
      "255.255.255.255",
    ])
      assert.equal(isSpecialUse(a), true, a);
  });

  it("refuses IPv6 loopback, unique local, link local, multicast, and IPv6 forms that embed a private IPv4", () => {
    for (const a of [
      "::1",
      "::",
      "fd00::1",
      "fe80::1",
      "ff02::1",
      "2001:db8::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "2002:c0a8:101::1",
    ])
      assert.equal(isSpecialUse(a), true, a);
  });

  it("lets public addresses through, and treats anything that is not an address as special", () => {
    for (const a of ["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      assert.equal(isSpecialUse(a), false, a);
    assert.equal(isSpecialUse("localhost"), true);
    assert.equal(isSpecialUse(""), true);
  });
});
