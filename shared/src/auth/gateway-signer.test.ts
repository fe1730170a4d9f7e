import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "vitest";
import { doorSigner } from "./gateway-signer.ts";
import { bodyless, sha256Base64url } from "./identity-assertion.ts";
import { keyringVerifier, testKeyring } from "./keyring.ts";

const master = randomBytes(32).toString("base64url");
const user = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" } as const;
const assertion = {
  identity: user,
  tenant: { tenant_id: "tnt_0123456789abcdefghij", role: "owner" },
  channel: "rest",
} as const;

describe("doorSigner", () => {
  it("signs with the route's service's own gateway key: another service cannot verify it", () => {
    const sign = doorSigner(testKeyring("edge-gateway", master));
    const b = bodyless("GET", "/v1/tenants/tnt_0123456789abcdefghij/offers");
    const header = sign("offers-svc", b, assertion);
    assert.deepEqual(keyringVerifier(testKeyring("offers-svc", master))(b, header)?.assertion.identity, user);
    assert.equal(keyringVerifier(testKeyring("audit-svc", master))(b, header), null);
  });

  it("reuses a bodyless header per service, signs a body fresh, and never signs a service identity", () => {
    const sign = doorSigner(testKeyring("mcp-gateway", master));
    const b = bodyless("GET", "/v1/x");
    assert.equal(sign("offers-svc", b, assertion), sign("offers-svc", b, assertion));
    assert.notEqual(sign("offers-svc", b, assertion), sign("connector-svc", b, assertion));
    const withBody = { method: "POST", target: "/v1/x", bodySha256: sha256Base64url("{}") };
    assert.ok(sign("offers-svc", withBody, assertion).startsWith("v4.gateway."));
    assert.throws(() => sign("offers-svc", b, { identity: { kind: "service", service: "offers-svc" } }));
  });
});
