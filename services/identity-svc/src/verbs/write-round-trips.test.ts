import assert from "node:assert/strict";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { countStatements } from "@flowstate/shared/db/statement-count";
import { afterAll, beforeAll, describe, it } from "vitest";
import { assertionHeaders } from "../testing/assertion.ts";
import { type Harness, startHarness } from "../testing/harness.ts";

/**
 * Round trips to PostgreSQL per tenant write, counted on the real database (every statement the
 * request sends, BEGIN and COMMIT included): the mixed gateway bench's two writes, a rename and a
 * flag change. Issue 26 asks for at most 4; these bounds are what the code does today (the gate's
 * plain read, BEGIN, the locked credential re-check, one statement locking the tenant with the
 * caller's and the owner's memberships, the change, its outbox row, COMMIT; a flag change also
 * reads the stored flags and, after commit, lists the doors to push the invalidation to, ADR 0011),
 * so a change that adds a round trip fails here and has to say why. Before issue 26: 11 and 13 (measured with this test on 402ed32).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_round_trips" });
});
afterAll(() => h.close());

/**
 * One request to identity-svc as its owner, signed as the gateway signs it (tenant and role
 * included): h.call would read the role from the database first, a statement that is not the
 * service's. Returns the answer and the statements the service sent for it.
 */
async function counted(method: string, path: string, as: VerifiedIdentity, tenantId: string, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const binding = { method, target: path, bodySha256: sha256Base64url(text ?? "") };
  const headers = {
    ...assertionHeaders(h.secret, binding, as, { tenant_id: tenantId, role: "owner" }),
    ...(text ? { "content-type": "application/json" } : {}),
  };
  const { result, statements } = await countStatements(h.deps.orm, () =>
    Promise.resolve(h.app.request(path, { method, headers, ...(text ? { body: text } : {}) })),
  );
  return { res: result, statements };
}

describe("PostgreSQL round trips of a tenant write", () => {
  it("renames a tenant in 7 and changes a flag in 9; an unchanged name costs no write", async () => {
    const owner = await h.signUp();
    const tenant = await h.createTenant(owner);
    const path = `/v1/tenants/${tenant.id}`;
    const as = owner.identity;
    const rename = await counted("PATCH", path, as, tenant.id, { name: "Renamed" });
    assert.equal(rename.res.status, 200);
    assert.equal(((await rename.res.json()) as { name: string }).name, "Renamed");
    assert.ok(rename.statements <= 7, `rename: ${rename.statements} statements`);
    const same = await counted("PATCH", path, as, tenant.id, { name: "Renamed" });
    assert.equal(same.res.status, 200);
    assert.ok(same.statements < rename.statements, `unchanged rename: ${same.statements} statements`);
    const flag = await counted("PUT", `${path}/features`, as, tenant.id, { marketplace_offers: true });
    assert.equal(flag.res.status, 200);
    assert.ok(flag.statements <= 9, `flag change: ${flag.statements} statements`);
    // The counter counts: a read is at least one statement.
    const read = await counted("GET", path, as, tenant.id);
    assert.equal(read.res.status, 200);
    assert.ok(read.statements >= 1);
  });
});
