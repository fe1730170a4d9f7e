import assert from "node:assert/strict";
import { JwksKeys } from "@flowstate/shared/auth/jwks-keys";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { SignJWT } from "jose";
import { describe, it } from "vitest";
import { randomId, testSigningKey } from "../../test/keys.ts";
import { upstreamUnavailable } from "../proxy/circuit-breaker.ts";
import { AccessTokenVerifier } from "./access-token.ts";

const ISS = "https://identity.flowstate.test";
const AUD = "flowstate-api";

async function setup() {
  const key = await testSigningKey();
  const published = { keys: [key.jwk] as unknown[] };
  let fetches = 0;
  const keys = new JwksKeys({
    fetchJwks: async () => {
      fetches++;
      return published;
    },
    minRefetchMs: 60_000,
    refreshMs: 300_000,
  });
  await keys.refresh();
  const verifier = new AccessTokenVerifier({ keys, issuer: ISS, audience: AUD, cacheMax: 100 });
  const claims = { sub: randomId("usr"), sid: randomId("ses"), iss: ISS, aud: AUD };
  return { key, keys, published, verifier, claims, fetches: () => fetches };
}

const rejectsWith = (promise: Promise<unknown>, code: string) =>
  assert.rejects(promise, (err) => err instanceof DomainError && err.kind === "unauthenticated" && err.code === code);

describe("AccessTokenVerifier", () => {
  it("verifies a token signed by a published key and then answers from its cache", async () => {
    const { key, verifier, claims } = await setup();
    const token = await key.sign(claims);
    assert.equal(verifier.peek(token), undefined);
    const verified = await verifier.verify(token);
    assert.equal(verified.sub, claims.sub);
    assert.equal(verified.sid, claims.sid);
    assert.deepEqual(verifier.peek(token), verified);
  });

  it("refuses an expired token with TOKEN_EXPIRED", async () => {
    const { key, verifier, claims } = await setup();
    const token = await key.sign(claims, { iat: Math.floor(Date.now() / 1000) - 700, lifetimeSec: 600 });
    await rejectsWith(verifier.verify(token), "TOKEN_EXPIRED");
  });

  it("refuses a token for another audience or issuer", async () => {
    const { key, verifier, claims } = await setup();
    await rejectsWith(verifier.verify(await key.sign({ ...claims, aud: "someone-else" })), "INVALID_TOKEN");
    await rejectsWith(verifier.verify(await key.sign({ ...claims, iss: "https://evil.test" })), "INVALID_TOKEN");
  });

  it("refuses a token signed by a key identity-svc does not publish, refetching the JWKS at most once per interval", async () => {
    const { verifier, claims, fetches } = await setup();
    const stranger = await testSigningKey();
    const before = fetches();
    await rejectsWith(verifier.verify(await stranger.sign(claims)), "INVALID_TOKEN");
    await rejectsWith(verifier.verify(await stranger.sign(claims)), "INVALID_TOKEN");
    assert.equal(fetches() - before, 0, "the last fetch was too recent to refetch");
  });

  it("fetches the key set on first use when identity-svc was down at boot, answering 503 while it still is", async () => {
    const key = await testSigningKey();
    let up = false;
    const keys = new JwksKeys({
      fetchJwks: async () => {
        if (!up) throw upstreamUnavailable(new Error("connection refused")); // what identity-client throws
        return { keys: [key.jwk] };
      },
      minRefetchMs: 60_000,
      refreshMs: 300_000,
    });
    await assert.rejects(keys.refresh());
    const verifier = new AccessTokenVerifier({ keys, issuer: ISS, audience: AUD, cacheMax: 100 });
    const token = await key.sign({ sub: randomId("usr"), sid: randomId("ses"), iss: ISS, aud: AUD });
    await assert.rejects(
      verifier.verify(token),
      (err) => err instanceof DomainError && err.code === "UPSTREAM_UNAVAILABLE",
    );
    up = true;
    const claims = await verifier.verify(token);
    assert.equal(claims.kid, key.kid);
  });

  it("retries soon after a failed refresh even once it has keys", async () => {
    const key = await testSigningKey();
    const rotated = await testSigningKey();
    let up = true;
    const published = { keys: [key.jwk] as unknown[] };
    const keys = new JwksKeys({
      fetchJwks: async () => {
        if (!up) throw new Error("connection refused");
        return published;
      },
      minRefetchMs: 60_000,
      refreshMs: 300_000,
    });
    await keys.refresh();
    up = false;
    await assert.rejects(keys.refresh());
    up = true;
    published.keys.push(rotated.jwk);
    await new Promise((r) => setTimeout(r, 600));
    const verifier = new AccessTokenVerifier({ keys, issuer: ISS, audience: AUD, cacheMax: 100 });
    const claims = await verifier.verify(
      await rotated.sign({ sub: randomId("usr"), sid: randomId("ses"), iss: ISS, aud: AUD }),
    );
    assert.equal(claims.kid, rotated.kid);
  });

  it("picks up a rotated key on its first unknown kid", async () => {
    const key = await testSigningKey();
    const rotated = await testSigningKey();
    const published = { keys: [key.jwk] as unknown[] };
    const keys = new JwksKeys({ fetchJwks: async () => published, minRefetchMs: 0, refreshMs: 300_000 });
    await keys.refresh();
    const verifier = new AccessTokenVerifier({ keys, issuer: ISS, audience: AUD, cacheMax: 100 });
    published.keys.push(rotated.jwk);
    const claims = await verifier.verify(
      await rotated.sign({ sub: randomId("usr"), sid: randomId("ses"), iss: ISS, aud: AUD }),
    );
    assert.equal(claims.kid, rotated.kid);
  });

  it("stops answering from its cache once the token's key is withdrawn", async () => {
    const { key, keys, published, verifier, claims } = await setup();
    const token = await key.sign(claims);
    await verifier.verify(token);
    published.keys = [];
    await keys.refresh();
    assert.equal(verifier.peek(token), undefined);
    await rejectsWith(verifier.verify(token), "INVALID_TOKEN");
  });

  it("refuses tokens with another algorithm or typ, a lifetime over 15 minutes, or ids of the wrong shape", async () => {
    const { key, verifier, claims } = await setup();
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: key.kid })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a-shared-secret-of-enough-length!"));
    await rejectsWith(verifier.verify(hs), "INVALID_TOKEN");
    await rejectsWith(verifier.verify(await key.sign(claims, { lifetimeSec: 3600 })), "INVALID_TOKEN");
    await rejectsWith(verifier.verify(await key.sign(claims, { typ: "JWT" })), "INVALID_TOKEN");
    await rejectsWith(verifier.verify(await key.sign({ ...claims, sub: "alice@example.com" })), "INVALID_TOKEN");
    await rejectsWith(verifier.verify(await key.sign({ ...claims, sid: undefined })), "INVALID_TOKEN");
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    await rejectsWith(verifier.verify(none), "INVALID_TOKEN");
  });

  it("refuses garbage without throwing anything but INVALID_TOKEN", async () => {
    const { verifier } = await setup();
    for (const garbage of ["", "a", "a.b.c", "....", "eyJ.eyJ.sig", "x".repeat(5000)]) {
      await rejectsWith(verifier.verify(garbage), "INVALID_TOKEN");
    }
  });
});
