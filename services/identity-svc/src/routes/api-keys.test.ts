import assert from "node:assert/strict";
import type { ApiKeyState } from "@flowstate/contracts/internal/identity";
import type { ApiKeyList, CreatedApiKey } from "@flowstate/contracts/rest/identity/api-keys";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, invalidationsOf, outboxEvents, startHarness, type TestUser } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_keys" });
});
afterAll(() => h.close());

const gw = { kind: "service", service: "edge-gateway" } as const;

async function createKey(by: TestUser, tenantId: string, scope: "read" | "write" = "write"): Promise<CreatedApiKey> {
  const res = await h.call("POST", `/v1/tenants/${tenantId}/api-keys`, {
    as: by.identity,
    body: { name: "CI", scope },
  });
  assert.equal(res.status, 201);
  const key = (await res.json()) as CreatedApiKey;
  recordSecret(key.secret);
  return key;
}
const verify = async (secret: string) =>
  h.call("POST", "/internal/v1/api-keys/verify", { as: gw, body: { key: secret } });
const stateOf = async (secret: string) => (await (await verify(secret)).json()) as ApiKeyState;

describe("tenant API keys", () => {
  it("shows the secret once, lists keys without it, and verifies it for the gateway", async () => {
    const owner = await h.signUp();
    const t = await h.createTenant(owner);
    const key = await createKey(owner, t.id, "read");
    assert.match(key.secret, /^fs_[0-9A-Za-z]+_[A-Za-z0-9_-]{43}$/);
    assert.ok(key.secret.startsWith(`${key.prefix}_`));
    const list = await h.call("GET", `/v1/tenants/${t.id}/api-keys`, { as: owner.identity });
    const text = await list.text();
    assert.equal(text.includes(key.secret.slice(key.prefix.length + 1)), false, "no secret in the list");
    const { api_keys } = JSON.parse(text) as ApiKeyList;
    assert.deepEqual(
      api_keys.map((k) => [k.key_id, k.scope, k.prefix, k.created_by, k.revoked_at]),
      [[key.key_id, "read", key.prefix, owner.sub, null]],
    );
    assert.deepEqual(await stateOf(key.secret), {
      key_id: key.key_id,
      tenant_id: t.id,
      scope: "read",
      created_by: owner.sub,
      active: true,
    });
    assert.equal((await outboxEvents(h, "ApiKeyCreated.v1")).filter((e) => e.envelope.tenant_id === t.id).length, 1);
  });

  it("answers 404 to a wrong secret for a real key id and to strings that are not keys", async () => {
    const owner = await h.signUp();
    const t = await h.createTenant(owner);
    const key = await createKey(owner, t.id);
    const tampered = `${key.secret.slice(0, -4)}AAAA`;
    assert.equal((await verify(tampered)).status, 404);
    assert.equal((await verify("fs_nope")).status, 404);
  });

  it("revokes a key: 204, inactive at the next check, the gateway told, idempotent", async () => {
    const owner = await h.signUp();
    const t = await h.createTenant(owner);
    const key = await createKey(owner, t.id);
    const res = await h.call("DELETE", `/v1/tenants/${t.id}/api-keys/${key.key_id}`, { as: owner.identity });
    assert.equal(res.status, 204);
    assert.deepEqual(invalidationsOf(res), [{ scope: "api_key", key_id: key.key_id, tenant_id: t.id }]);
    assert.equal((await stateOf(key.secret)).active, false);
    assert.equal(
      (await h.call("DELETE", `/v1/tenants/${t.id}/api-keys/${key.key_id}`, { as: owner.identity })).status,
      204,
    );
    const revoked = (await outboxEvents(h, "ApiKeyRevoked.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.equal(revoked.length, 1);
  });

  it("answers 404 when revoking another tenant's key through one's own tenant", async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const ta = await h.createTenant(a);
    const tb = await h.createTenant(b);
    const keyB = await createKey(b, tb.id);
    assert.equal(
      (await h.call("DELETE", `/v1/tenants/${ta.id}/api-keys/${keyB.key_id}`, { as: a.identity })).status,
      404,
    );
    assert.equal((await stateOf(keyB.secret)).active, true);
  });

  it("stops a key when its creator is removed or demoted, and when the tenant is deleted", async () => {
    const owner = await h.signUp();
    const admin1 = await h.signUp();
    const admin2 = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, admin1, "admin");
    await h.addMember(owner, t.id, admin2, "admin");
    const k1 = await createKey(admin1, t.id);
    const k2 = await createKey(admin2, t.id);
    const k3 = await createKey(owner, t.id);

    const removed = await h.call("DELETE", `/v1/tenants/${t.id}/members/${admin1.sub}`, { as: owner.identity });
    assert.deepEqual(invalidationsOf(removed), [
      { scope: "membership", tenant_id: t.id, sub: admin1.sub },
      { scope: "api_key", key_id: k1.key_id, tenant_id: t.id },
    ]);
    assert.equal((await stateOf(k1.secret)).active, false);

    const demoted = await h.call("PATCH", `/v1/tenants/${t.id}/members/${admin2.sub}`, {
      as: owner.identity,
      body: { role: "member" },
    });
    assert.equal(demoted.status, 200);
    assert.equal((await stateOf(k2.secret)).active, false);

    assert.equal((await stateOf(k3.secret)).active, true);
    await h.call("DELETE", `/v1/tenants/${t.id}`, { as: owner.identity });
    assert.equal((await stateOf(k3.secret)).active, false);
  });
});
