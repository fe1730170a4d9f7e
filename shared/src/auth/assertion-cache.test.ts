import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertionSigner, assertionVerifier } from "./assertion-cache.ts";
import { MAX_SKEW_MS, signAssertion, verifyAssertion } from "./identity-assertion.ts";

const secret = "test-secret-0123456789";
const user = { kind: "user", sub: "usr_0123456789abcdefghij", sid: "ses_0123456789abcdefghij" } as const;
const tenant = { tenant_id: "tnt_0123456789abcdefghij", role: "owner" } as const;
const path = `/v1/tenants/${tenant.tenant_id}`;
const t0 = 1_800_000_000_000;

describe("the gateway's assertion signer", () => {
  it("reuses one header for the same identity, tenant, method and path within the reuse window", () => {
    const sign = assertionSigner(secret, { reuseMs: 1000 });
    const first = sign("GET", path, { identity: user, tenant }, t0);
    assert.equal(sign("GET", path, { identity: user, tenant }, t0 + 999), first);
    assert.notEqual(sign("GET", path, { identity: user, tenant }, t0 + 1000), first);
    assert.deepEqual(verifyAssertion(secret, "GET", path, first, t0 + 999), { identity: user, tenant });
  });

  it("signs a new header when the method, path, tenant role or identity differ", () => {
    const sign = assertionSigner(secret);
    const base = sign("GET", path, { identity: user, tenant }, t0);
    const others = [
      sign("DELETE", path, { identity: user, tenant }, t0),
      sign("GET", `${path}/members`, { identity: user, tenant }, t0),
      sign("GET", path, { identity: user, tenant: { ...tenant, role: "member" } }, t0),
      sign("GET", path, { identity: { ...user, sid: "ses_zzzzzzzzzzzzzzzzzzzz" }, tenant }, t0),
    ];
    for (const h of others) assert.notEqual(h, base);
    assert.equal(verifyAssertion(secret, "GET", path, others[2], t0)?.tenant?.role, "member");
  });

  it("stays bounded, forgetting the least recently used entry", () => {
    const sign = assertionSigner(secret, { max: 2 });
    const a = sign("GET", "/a", { identity: user }, t0);
    sign("GET", "/b", { identity: user }, t0 + 1);
    assert.equal(sign("GET", "/a", { identity: user }, t0 + 2), a); // /a is now the youngest
    sign("GET", "/c", { identity: user }, t0 + 3); // evicts /b
    assert.equal(sign("GET", "/a", { identity: user }, t0 + 4), a);
    assert.notEqual(sign("GET", "/b", { identity: user }, t0 + 5), sign("GET", "/b", { identity: user }, t0 + 1));
  });
});

describe("a service's assertion verifier", () => {
  it("accepts a genuine header, then again from its cache", () => {
    const verify = assertionVerifier(secret);
    const header = signAssertion(secret, "GET", path, { identity: user, tenant }, t0);
    assert.deepEqual(verify("GET", path, header, t0 + 1), { identity: user, tenant });
    assert.deepEqual(verify("GET", path, header, t0 + 2), { identity: user, tenant });
  });

  it("refuses a cached header presented for another path or method", () => {
    const verify = assertionVerifier(secret);
    const header = signAssertion(secret, "GET", path, { identity: user, tenant }, t0);
    assert.ok(verify("GET", path, header, t0));
    assert.equal(verify("GET", "/v1/tenants", header, t0), null);
    assert.equal(verify("DELETE", path, header, t0), null);
    assert.ok(verify("GET", path, header, t0), "the genuine use still passes afterwards");
  });

  it("refuses a cached header once it leaves the skew window, either way", () => {
    const verify = assertionVerifier(secret);
    const header = signAssertion(secret, "GET", path, { identity: user }, t0);
    assert.ok(verify("GET", path, header, t0));
    assert.equal(verify("GET", path, header, t0 + MAX_SKEW_MS + 1), null);
    const future = signAssertion(secret, "GET", path, { identity: user }, t0 + MAX_SKEW_MS);
    assert.ok(verify("GET", path, future, t0));
    assert.equal(verify("GET", path, future, t0 - 1), null);
  });

  it("refuses forged, tampered and old-format headers, and never caches a refusal", () => {
    const verify = assertionVerifier(secret);
    const forged = signAssertion("another-key", "GET", path, { identity: user }, t0);
    assert.equal(verify("GET", path, forged, t0), null);
    assert.equal(verify("GET", path, forged, t0), null);
    const genuine = signAssertion(secret, "GET", path, { identity: user }, t0);
    const [v, ts, , sig] = genuine.split(".");
    const other = Buffer.from(JSON.stringify({ identity: { ...user, sub: "usr_zzzzzzzzzzzzzzzzzzzz" } })).toString(
      "base64url",
    );
    assert.equal(verify("GET", path, `${v}.${ts}.${other}.${sig}`, t0), null);
    assert.equal(verify("GET", path, genuine.replace(/^v2\./, "v1."), t0), null);
    assert.equal(verify("GET", path, undefined, t0), null);
  });

  it("hands out a frozen assertion, so one request cannot change another's identity", () => {
    const verify = assertionVerifier(secret);
    const header = signAssertion(secret, "GET", path, { identity: user, tenant }, t0);
    const assertion = verify("GET", path, header, t0)!;
    assert.throws(() => {
      (assertion.tenant as { role: string }).role = "owner-ish";
    }, TypeError);
  });

  it("carries the caller's channel, signed: another channel is another header", () => {
    const sign = assertionSigner(secret);
    const verify = assertionVerifier(secret);
    const rest = sign("GET", path, { identity: user, tenant, channel: "rest" }, t0);
    const mcp = sign("GET", path, { identity: user, tenant, channel: "mcp" }, t0);
    assert.notEqual(rest, mcp);
    assert.equal(verify("GET", path, rest, t0)?.channel, "rest");
    assert.equal(verify("GET", path, mcp, t0)?.channel, "mcp");
    assert.equal(verify("GET", path, sign("GET", path, { identity: user }, t0), t0)?.channel, undefined);
  });
});
