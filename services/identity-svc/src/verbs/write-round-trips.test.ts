import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { countStatements } from "@flowstate/shared/db/statement-count";
import { afterAll, beforeAll, describe, it } from "vitest";
import { assertionHeaders } from "../testing/assertion.ts";
import { type Harness, startHarness } from "../testing/harness.ts";

/**
 * Round trips to PostgreSQL per tenant write, counted on the real database (every statement the
 * request sends, BEGIN and COMMIT included): the mixed gateway bench's two writes, a rename and a
 * flag change. Issue 26 asks for at most 4, and both are 4 (7 and 9 before, 11 and 13 before the
 * first round of issue 26, measured with this test on 402ed32): BEGIN; one statement that re-checks
 * the credential and locks it with the tenant and the caller's and the owner's memberships
 * (verbs/lib/tenant-transaction.ts; the write gate's early read is made only on a refusal,
 * CHECKED_IN_TRANSACTION in app.ts); the change with its outbox rows in one statement
 * (shared/src/outbox/outbox-insert.ts; the flag change also compares with the stored flags there
 * and reads the doors to push to, under the door set's lock taken by the statement before,
 * doors/door-leases.ts); COMMIT. A change that adds a round trip fails here and has to say why.
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
  const { result, statements, shapes } = await countStatements(h.deps.orm, () =>
    Promise.resolve(h.app.request(path, { method, headers, ...(text ? { body: text } : {}) })),
  );
  return { res: result, statements, shapes };
}

describe("PostgreSQL round trips of a tenant write", () => {
  it("renames a tenant in 4 and changes a flag in 4; an unchanged name or flag writes nothing", async () => {
    const owner = await h.signUp();
    const tenant = await h.createTenant(owner);
    const path = `/v1/tenants/${tenant.id}`;
    const as = owner.identity;
    const rename = await counted("PATCH", path, as, tenant.id, { name: "Renamed" });
    assert.equal(rename.res.status, 200);
    assert.equal(((await rename.res.json()) as { name: string }).name, "Renamed");
    assert.ok(rename.statements <= 4, `rename: ${rename.statements} statements\n${rename.shapes.join("\n")}`);
    const same = await counted("PATCH", path, as, tenant.id, { name: "Renamed" });
    assert.equal(same.res.status, 200);
    assert.ok(same.statements < rename.statements, `unchanged rename: ${same.statements} statements`);
    const flag = await counted("PUT", `${path}/features`, as, tenant.id, { marketplace_offers: true });
    assert.equal(flag.res.status, 200);
    assert.deepEqual(await flag.res.json(), { marketplace_offers: true });
    assert.ok(flag.statements <= 4, `flag change: ${flag.statements} statements\n${flag.shapes.join("\n")}`);
    const unchanged = await counted("PUT", `${path}/features`, as, tenant.id, { marketplace_offers: true });
    assert.deepEqual(await unchanged.res.json(), { marketplace_offers: true });
    assert.equal(unchanged.res.headers.get("flowstate-invalidate"), null, "no change, nothing to invalidate");
    // The counter counts: a read is at least one statement.
    const read = await counted("GET", path, as, tenant.id);
    assert.equal(read.res.status, 200);
    assert.ok(read.statements >= 1);
  });

  it("changes a flag in 4 with a door registered too, and the door gets the push before the answer", async () => {
    const pushes: string[] = [];
    const door = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        pushes.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => door.listen(0, "127.0.0.1", resolve));
    const instanceId = `edge-gateway-${randomBytes(8).toString("hex")}`;
    try {
      const pushUrl = `http://127.0.0.1:${(door.address() as { port: number }).port}`;
      await h.deps.doors.leases.renew(instanceId, pushUrl, 60_000);
      const owner = await h.signUp();
      const tenant = await h.createTenant(owner);
      const flag = await counted("PUT", `/v1/tenants/${tenant.id}/features`, owner.identity, tenant.id, {
        marketplace_offers: true,
      });
      assert.equal(flag.res.status, 200);
      assert.ok(flag.statements <= 4, `flag change: ${flag.statements} statements\n${flag.shapes.join("\n")}`);
      assert.deepEqual(
        pushes.map((p) => JSON.parse(p)),
        [[{ scope: "features", tenant_id: tenant.id }]],
      );
    } finally {
      await h.deps.doors.leases.leave(instanceId);
      await new Promise((resolve) => door.close(resolve));
    }
  });
});
