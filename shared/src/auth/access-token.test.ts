import assert from "node:assert/strict";
import { generateKeyPair, SignJWT } from "jose";
import { describe, it } from "vitest";
import { DomainError } from "../errors/domain-error.ts";
import { verifyAccessToken } from "./access-token.ts";

const ISS = "https://api.flowstate.test";
const REST = "flowstate-api";
const MCP = "https://mcp.flowstate.test/mcp";
const sub = "usr_0123456789abcdefghij";
const sid = "ses_0123456789abcdefghij";

async function setup() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const keys = { key: async (kid: string) => (kid === "k1" ? publicKey : null) };
  const sign = (claims: Record<string, unknown>, o: { typ?: string; kid?: string; life?: number } = {}) => {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub, sid, iss: ISS, ...claims })
      .setProtectedHeader({ alg: "ES256", kid: o.kid ?? "k1", typ: o.typ ?? "at+jwt" })
      .setIssuedAt(iat)
      .setExpirationTime(iat + (o.life ?? 600))
      .sign(privateKey);
  };
  return { keys, sign };
}

const refused = (p: Promise<unknown>, code = "INVALID_TOKEN") =>
  assert.rejects(p, (e) => e instanceof DomainError && e.code === code);

describe("verifyAccessToken", () => {
  it("returns the OAuth claims of an MCP token verified for the MCP audience", async () => {
    const { keys, sign } = await setup();
    const token = await sign({
      aud: MCP,
      scope: "marketplace:read account",
      client_id: "https://client.example/cimd.json",
      tenant_id: "tnt_0123456789abcdefghij",
      auth_time: 1_700_000_000,
    });
    const claims = await verifyAccessToken(token, { keys, issuer: ISS, audience: MCP });
    assert.deepEqual(claims.scopes, ["marketplace:read", "account"]);
    assert.equal(claims.clientId, "https://client.example/cimd.json");
    assert.equal(claims.tenantId, "tnt_0123456789abcdefghij");
    assert.equal(claims.authTime, 1_700_000_000);
    assert.equal(claims.aud, MCP);
  });

  it("refuses a token of the other audience at each door, and a token naming both", async () => {
    const { keys, sign } = await setup();
    await refused(verifyAccessToken(await sign({ aud: REST }), { keys, issuer: ISS, audience: MCP }));
    await refused(verifyAccessToken(await sign({ aud: MCP }), { keys, issuer: ISS, audience: REST }));
    await refused(verifyAccessToken(await sign({ aud: [MCP, REST] }), { keys, issuer: ISS, audience: MCP }));
  });

  it("refuses another JWT type, an unknown key, a foreign issuer, a long lifetime and malformed claims", async () => {
    const { keys, sign } = await setup();
    const o = { keys, issuer: ISS, audience: MCP };
    await refused(verifyAccessToken(await sign({ aud: MCP }, { typ: "JWT" }), o));
    await refused(verifyAccessToken(await sign({ aud: MCP }, { kid: "k2" }), o));
    await refused(verifyAccessToken(await sign({ aud: MCP, iss: "https://evil.test" }), o));
    await refused(verifyAccessToken(await sign({ aud: MCP }, { life: 3600 }), o));
    await refused(verifyAccessToken(await sign({ aud: MCP, tenant_id: "not-a-tenant" }), o));
    await refused(verifyAccessToken(await sign({ aud: MCP, scope: 'bad"scope' }), o));
    await refused(verifyAccessToken("not.a.token", o));
  });

  it("says TOKEN_EXPIRED once the verifier's clock passes exp", async () => {
    const { keys, sign } = await setup();
    const token = await sign({ aud: MCP });
    const later = () => Date.now() + 601_000;
    await refused(verifyAccessToken(token, { keys, issuer: ISS, audience: MCP, now: later }), "TOKEN_EXPIRED");
  });
});
