import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { DomainError } from "../errors/domain-error.ts";
import { doorSigner } from "./gateway-signer.ts";
import {
  type Assertion,
  bodyless,
  MAX_HELD_MS,
  MAX_SKEW_MS,
  type RequestBinding,
  sha256Base64url,
} from "./identity-assertion.ts";
import { checkKeyedHeader } from "./keyed-assertion.ts";
import { gatewaySign, keyringVerifier, testKeyring } from "./keyring.ts";

/**
 * The assertion's binding and window, the doors' reuse of bodyless headers and the services'
 * verifier cache, over the keys per caller (ADR 0014): the edge gateway signing for offers-svc.
 */
const secret = "test-secret-0123456789";
const edge = testKeyring("edge-gateway", secret);
const signFor = (key: string, b: RequestBinding, a: Assertion, now = Date.now()) =>
  gatewaySign(key === secret ? edge : testKeyring("edge-gateway", key), "offers-svc", b, a, now);
const serviceVerifier = (key: string) => keyringVerifier(testKeyring("offers-svc", key));
/** The bare check (no cache, a held header is just not valid): what the header itself proves. */
const verifyOnce = (key: string, b: RequestBinding, header: string | undefined, now: number) => {
  const pair = testKeyring("offers-svc", key).pair("gateway--offers-svc")!;
  const checked = header ? checkKeyedHeader([pair.current.key], b, header, now) : undefined;
  return checked?.status === "valid" ? checked.assertion : null;
};
const reusingSigner = (_key: string, options: { reuseMs?: number; max?: number } = {}) => {
  const sign = doorSigner(edge, options);
  return (b: RequestBinding, a: Assertion, now?: number) => sign("offers-svc", b, a, now);
};
const user = { kind: "user", sub: "usr_0123456789abcdefghij", sid: "ses_0123456789abcdefghij" } as const;
const tenant = { tenant_id: "tnt_0123456789abcdefghij", role: "owner" } as const;
const path = `/v1/tenants/${tenant.tenant_id}`;
const get = bodyless("GET", path);
const post = (body: string, target = `${path}/members`): RequestBinding => ({
  method: "POST",
  target,
  bodySha256: sha256Base64url(body),
});
const t0 = 1_800_000_000_000;
/** The refusal of a held assertion: 503 UPSTREAM_UNAVAILABLE with Retry-After. */
const held = (err: unknown) =>
  err instanceof DomainError &&
  err.code === "UPSTREAM_UNAVAILABLE" &&
  err.kind === "unavailable" &&
  err.retryAfter === 1;

describe("the identity assertion", () => {
  it("binds the body: the same header with another body is refused", () => {
    const header = signFor(secret, post('{"email":"a@x.test","role":"member"}'), { identity: user, tenant }, t0);
    assert.ok(verifyOnce(secret, post('{"email":"a@x.test","role":"member"}'), header, t0));
    assert.equal(verifyOnce(secret, post('{"email":"b@x.test","role":"admin"}'), header, t0), null);
    assert.equal(verifyOnce(secret, bodyless("POST", `${path}/members`), header, t0), null);
  });

  it("binds the whole target: another query, or none, is refused", () => {
    const header = signFor(secret, bodyless("GET", `${path}?limit=1`), { identity: user }, t0);
    assert.ok(verifyOnce(secret, bodyless("GET", `${path}?limit=1`), header, t0));
    assert.equal(verifyOnce(secret, bodyless("GET", `${path}?limit=100`), header, t0), null);
    assert.equal(verifyOnce(secret, bodyless("GET", path), header, t0), null);
  });

  it("holds for a few seconds only, either way", () => {
    assert.ok(MAX_SKEW_MS <= 10_000);
    const header = signFor(secret, get, { identity: user }, t0);
    assert.ok(verifyOnce(secret, get, header, t0 + MAX_SKEW_MS));
    assert.equal(verifyOnce(secret, get, header, t0 + MAX_SKEW_MS + 1), null);
    assert.equal(verifyOnce(secret, get, header, t0 - MAX_SKEW_MS - 1), null);
  });

  it("refuses a timestamp that is written differently from the one signed", () => {
    const header = signFor(secret, get, { identity: user }, t0);
    assert.equal(verifyOnce(secret, get, header.replace(`v4.gateway.${t0}.`, `v4.gateway.0${t0}.`), t0), null);
  });
});

describe("the gateway's assertion signer", () => {
  it("reuses one header for the same identity, tenant and bodyless request within the reuse window", () => {
    const sign = reusingSigner(secret, { reuseMs: 1000 });
    const first = sign(get, { identity: user, tenant }, t0);
    assert.equal(sign(get, { identity: user, tenant }, t0 + 999), first);
    assert.notEqual(sign(get, { identity: user, tenant }, t0 + 1000), first);
    assert.deepEqual(verifyOnce(secret, get, first, t0 + 999), { identity: user, tenant });
  });

  it("signs a new header when the method, target, tenant role or identity differ", () => {
    const sign = reusingSigner(secret);
    const base = sign(get, { identity: user, tenant }, t0);
    const others = [
      sign(bodyless("DELETE", path), { identity: user, tenant }, t0),
      sign(bodyless("GET", `${path}/members`), { identity: user, tenant }, t0),
      sign(bodyless("GET", `${path}?a=1`), { identity: user, tenant }, t0),
      sign(get, { identity: user, tenant: { ...tenant, role: "member" } }, t0),
      sign(get, { identity: { ...user, sid: "ses_zzzzzzzzzzzzzzzzzzzz" }, tenant }, t0),
    ];
    for (const h of others) assert.notEqual(h, base);
    assert.equal(verifyOnce(secret, get, others[3], t0)?.tenant?.role, "member");
  });

  it("never reuses a header for a request with a body", () => {
    const sign = reusingSigner(secret);
    const a = sign(post("{}"), { identity: user, tenant }, t0);
    const b = sign(post("{}"), { identity: user, tenant }, t0 + 1);
    assert.notEqual(a, b);
    assert.ok(verifyOnce(secret, post("{}"), b, t0 + 1));
  });

  it("stays bounded, forgetting the least recently used entry", () => {
    const sign = reusingSigner(secret, { max: 2 });
    const [a, b, c] = ["/a", "/b", "/c"].map((p) => bodyless("GET", p)) as [
      RequestBinding,
      RequestBinding,
      RequestBinding,
    ];
    const first = sign(a, { identity: user }, t0);
    sign(b, { identity: user }, t0 + 1);
    assert.equal(sign(a, { identity: user }, t0 + 2), first); // /a is now the youngest
    sign(c, { identity: user }, t0 + 3); // evicts /b
    assert.equal(sign(a, { identity: user }, t0 + 4), first);
    assert.notEqual(sign(b, { identity: user }, t0 + 5), sign(b, { identity: user }, t0 + 1));
  });
});

describe("a service's assertion verifier", () => {
  it("accepts a genuine header, then again from its cache, with the time it was issued", () => {
    const verify = serviceVerifier(secret);
    const header = signFor(secret, get, { identity: user, tenant }, t0);
    assert.deepEqual(verify(get, header, t0 + 1), { assertion: { identity: user, tenant }, issued: t0 });
    assert.deepEqual(verify(get, header, t0 + 2), { assertion: { identity: user, tenant }, issued: t0 });
  });

  it("refuses a cached header presented for another target, method or body", () => {
    const verify = serviceVerifier(secret);
    const header = signFor(secret, post("{}"), { identity: user, tenant }, t0);
    assert.ok(verify(post("{}"), header, t0));
    assert.equal(verify(post('{"role":"admin"}'), header, t0), null);
    assert.equal(verify(post("{}", `${path}/members?x=1`), header, t0), null);
    assert.equal(verify({ ...post("{}"), method: "PUT" }, header, t0), null);
    assert.ok(verify(post("{}"), header, t0), "the genuine use still passes afterwards");
  });

  it("refuses a cached header once it leaves the skew window, either way (held: 503, then 401)", () => {
    const verify = serviceVerifier(secret);
    const header = signFor(secret, get, { identity: user }, t0);
    assert.ok(verify(get, header, t0));
    assert.throws(() => verify(get, header, t0 + MAX_SKEW_MS + 1), held);
    assert.equal(verify(get, header, t0 + MAX_SKEW_MS + MAX_HELD_MS + 1), null);
    const future = signFor(secret, get, { identity: user }, t0 + MAX_SKEW_MS);
    assert.ok(verify(get, future, t0));
    assert.equal(verify(get, future, t0 - 1), null);
  });

  // Issue 20, finding 6: a request held in a stalled service's queue is a slow upstream, not a bad
  // credential. Only a genuine header for this very request qualifies, and it is still refused.
  it("answers a genuine header for this request held past its window 503 UPSTREAM_UNAVAILABLE with Retry-After, for MAX_HELD_MS", () => {
    const verify = serviceVerifier(secret);
    const header = signFor(secret, post("{}"), { identity: user, tenant }, t0);
    for (const late of [MAX_SKEW_MS + 1, MAX_SKEW_MS + MAX_HELD_MS])
      assert.throws(() => verify(post("{}"), header, t0 + late), held);
    assert.equal(verify(post("{}"), header, t0 + MAX_SKEW_MS + MAX_HELD_MS + 1), null, "older: a replay, 401");
  });

  it("refuses a forged, tampered or rebound header past its window with null (401), never as held", () => {
    const verify = serviceVerifier(secret);
    const late = t0 + MAX_SKEW_MS + 1000;
    const genuine = signFor(secret, post("{}"), { identity: user, tenant }, t0);
    assert.equal(verify(post("{}"), signFor("another-key", post("{}"), { identity: user }, t0), late), null);
    assert.equal(verify(post('{"role":"admin"}'), genuine, late), null, "another body");
    assert.equal(verify(post("{}", `${path}/other`), genuine, late), null, "another target");
    const [v, kid, , payload, sig] = genuine.split(".");
    assert.equal(verify(post("{}"), `${v}.${kid}.${t0 - 1}.${payload}.${sig}`, late), null, "another timestamp");
    const ahead = signFor(secret, post("{}"), { identity: user, tenant }, late + MAX_SKEW_MS + 1000);
    assert.equal(verify(post("{}"), ahead, late), null, "from beyond the window ahead");
  });

  it("refuses forged, tampered and old-format headers, and never caches a refusal", () => {
    const verify = serviceVerifier(secret);
    const forged = signFor("another-key", get, { identity: user }, t0);
    assert.equal(verify(get, forged, t0), null);
    assert.equal(verify(get, forged, t0), null);
    const genuine = signFor(secret, get, { identity: user }, t0);
    const [v, kid, ts, , sig] = genuine.split(".");
    const other = Buffer.from(JSON.stringify({ identity: { ...user, sub: "usr_zzzzzzzzzzzzzzzzzzzz" } })).toString(
      "base64url",
    );
    assert.equal(verify(get, `${v}.${kid}.${ts}.${other}.${sig}`, t0), null);
    assert.equal(verify(get, genuine.replace(/^v4\./, "v3."), t0), null);
    assert.equal(verify(get, genuine.replace(/^v4\.gateway\./, "v3."), t0), null);
    assert.equal(verify(get, undefined, t0), null);
  });

  it("hands out a frozen assertion, so one request cannot change another's identity", () => {
    const verify = serviceVerifier(secret);
    const header = signFor(secret, get, { identity: user, tenant }, t0);
    const { assertion } = verify(get, header, t0)!;
    assert.throws(() => {
      (assertion.tenant as { role: string }).role = "owner-ish";
    }, TypeError);
  });

  it("carries the caller's channel, signed: another channel is another header", () => {
    const sign = reusingSigner(secret);
    const verify = serviceVerifier(secret);
    const rest = sign(get, { identity: user, tenant, channel: "rest" }, t0);
    const mcp = sign(get, { identity: user, tenant, channel: "mcp" }, t0);
    assert.notEqual(rest, mcp);
    assert.equal(verify(get, rest, t0)?.assertion.channel, "rest");
    assert.equal(verify(get, mcp, t0)?.assertion.channel, "mcp");
    assert.equal(verify(get, sign(get, { identity: user }, t0), t0)?.assertion.channel, undefined);
  });
});
