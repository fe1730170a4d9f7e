import assert from "node:assert/strict";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * One rule for API keys (contracts/src/auth/tenant-access.ts, `keyRole`): a key acts with its
 * scope's role, and dies once its creator is no longer an admin or owner of the tenant. The
 * gateway (before it forwards) and identity-svc (for a request signed before the demotion reached
 * the gateway, or replayed) must refuse such a key the same way.
 */
let e2e: E2E;
let owner: Account;
let admin: Account;
let tenantId: string;
beforeAll(async () => {
  e2e = await startE2E("gw_keyrole");
  [owner, admin] = await Promise.all([e2e.signUp(), e2e.signUp()]);
  tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Keys" } })).json.id;
  await e2e.addMember(owner, tenantId, admin, "admin");
});
afterAll(() => e2e.close());

async function keyOf(creator: Account, scope: "read" | "write") {
  const res = await e2e.call("POST", `/v1/tenants/${tenantId}/api-keys`, {
    token: creator.token,
    body: { name: `k-${scope}`, scope },
  });
  assert.equal(res.status, 201, res.text);
  const identity: VerifiedIdentity = {
    kind: "api_key",
    sub: creator.sub,
    key_id: res.json.key_id,
    tenant_id: tenantId,
    scope,
  };
  return { secret: recordSecret(res.json.secret as string), identity };
}

/** The same read through the gateway and straight at identity-svc with a signed assertion for the key. */
async function bothWays(key: Awaited<ReturnType<typeof keyOf>>, path = `/v1/tenants/${tenantId}`) {
  const gateway = await e2e.call("GET", path, { token: key.secret });
  const res = await e2e.identity.call("GET", path, { as: key.identity });
  const service = { status: res.status, json: (await res.json()) as Record<string, unknown> };
  return { gateway, service };
}

const refusal = (answer: { status: number; json: Record<string, unknown> }) => ({
  status: answer.status,
  code: answer.json.code,
  detail: answer.json.detail,
});

describe("an API key whose creator is no longer an admin", () => {
  it("works while the creator is an admin, with its scope's role, at the gateway and in the service", async () => {
    const { gateway, service } = await bothWays(await keyOf(admin, "read"));
    assert.equal(gateway.status, 200, gateway.text);
    assert.equal(service.status, 200);
    assert.equal(gateway.json.role, "member");
    assert.equal(service.json.role, "member");
  });

  it("is refused 401 INVALID_API_KEY alike at the gateway and in the service once the creator is demoted", async () => {
    const key = await keyOf(admin, "write");
    assert.equal((await bothWays(key)).gateway.status, 200); // warm the gateway's caches
    const demoted = await e2e.call("PATCH", `/v1/tenants/${tenantId}/members/${admin.sub}`, {
      token: owner.token,
      body: { role: "member" },
    });
    assert.equal(demoted.status, 200, demoted.text);
    for (const path of [`/v1/tenants/${tenantId}`, `/v1/tenants/${tenantId}/members`]) {
      const { gateway, service } = await bothWays(key, path);
      assert.deepEqual(refusal(gateway), {
        status: 401,
        code: "INVALID_API_KEY",
        detail: "the API key is not valid or has been revoked",
      });
      assert.deepEqual(refusal(service), refusal(gateway), path);
    }
  });

  it("is refused by the role rule itself, not only because demotion revokes the creator's keys", async () => {
    const other = await e2e.signUp();
    await e2e.addMember(owner, tenantId, other, "admin");
    const key = await keyOf(other, "read");
    // The membership changes underneath the key without the revocation that the demote verb does.
    const { deps } = e2e.identity;
    await deps.orm.em
      .fork()
      .execute(`UPDATE "${deps.schema}".membership SET role = 'member' WHERE tenant_id = ? AND sub = ?`, [
        tenantId,
        other.sub,
      ]);
    e2e.gateway.gateway.invalidateAll();
    const { gateway, service } = await bothWays(key);
    assert.equal(refusal(gateway).code, "INVALID_API_KEY", gateway.text);
    assert.deepEqual(refusal(service), refusal(gateway));
  });
});
