import assert from "node:assert/strict";
import { type Invalidation, InvalidationList } from "@flowstate/contracts/internal/identity";
import { newId } from "@flowstate/shared/ids/new-id";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, invalidationsOf, startHarness } from "../testing/harness.ts";
import { compactInvalidations, MAX_NAMED } from "./compact-invalidations.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_compact_inv" });
});
afterAll(() => h.close());

const sessions = (sub: string, n: number): Invalidation[] =>
  Array.from({ length: n }, () => ({ scope: "session", sid: newId("ses"), sub }));

describe("the invalidations a call tells the doors", () => {
  it("names a few sessions one by one, an account's many as the account, and too many as everything", () => {
    const sub = newId("usr");
    const few = sessions(sub, 3);
    assert.deepEqual(compactInvalidations(few), few);
    assert.deepEqual(compactInvalidations([...sessions(sub, 11), { scope: "account", sub }]), [
      { scope: "account", sub },
    ]);
    const other = newId("usr");
    const mixed = compactInvalidations([...sessions(sub, 40), ...sessions(other, 2)]);
    assert.deepEqual(mixed.slice(0, 1), [{ scope: "account", sub }]);
    assert.equal(mixed.length, 3);
    const members = Array.from(
      { length: MAX_NAMED + 1 },
      (): Invalidation => ({
        scope: "membership",
        tenant_id: newId("tnt"),
        sub,
      }),
    );
    // Names nothing: the doors drop every cached fact (edge-gateway keysFor answers null).
    assert.deepEqual(compactInvalidations(members), [{ scope: "account" }]);
  });

  it("an account signed in 150 times signs out everywhere with a list every door accepts", async () => {
    const u = await h.signUp();
    const at = new Date();
    const later = new Date(at.getTime() + 86_400_000);
    const rows = Array.from({ length: 149 }, () => [newId("ses"), u.sub, at, later]);
    await h.db.orm.em
      .fork()
      .execute(
        `INSERT INTO "${h.db.schema}".user_session (sid, sub, created_at, expires_at) VALUES ${rows.map(() => "(?, ?, ?, ?)").join(", ")}`,
        rows.flat(),
      );
    const res = await h.call("POST", "/v1/auth/signout-everywhere", { as: u.identity });
    assert.equal(res.status, 204);
    const named = InvalidationList.parse(invalidationsOf(res));
    assert.deepEqual(named, [{ scope: "account", sub: u.sub }]);
    const [live] = await h.db.orm.em
      .fork()
      .execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${h.db.schema}".user_session WHERE sub = ? AND revoked_at IS NULL`,
        [u.sub],
      );
    assert.equal(live?.n, 0, "every one of the 150 sessions ended");
  });
});
