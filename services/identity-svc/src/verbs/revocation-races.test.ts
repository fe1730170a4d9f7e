import assert from "node:assert/strict";
import type { TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { deleteAccount } from "./delete-account.ts";
import { disableAccount } from "./disable-account.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_races" });
});
afterAll(() => h.close());

async function sessions(email: string, password: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await h.call("POST", "/v1/auth/signin", { body: { email, password } });
    const t = (await res.json()) as TokenResponse;
    recordSecret(t.access_token);
    out.push(recordSecret(t.refresh_token));
  }
  return out;
}

describe("revocation racing normal traffic", () => {
  it("refreshes running while the account is disabled end in 200 or 401, never a deadlock or a 5xx, and none survives", async () => {
    for (let round = 0; round < 3; round++) {
      const u = await h.signUp();
      const tokens = [u.tokens.refresh_token, ...(await sessions(u.email, u.password, 3))];
      const refreshes = tokens.map((rt) => h.call("POST", "/v1/auth/refresh", { body: { refresh_token: rt } }));
      const [disabled, ...answers] = await Promise.all([
        disableAccount({ ctx: h.ctx({ kind: "system" }), sub: u.sub }),
        ...refreshes,
      ]);
      assert.ok(disabled.disabled_at);
      for (const res of answers) {
        assert.ok([200, 401].includes(res.status), `round ${round}: ${res.status}`);
        if (res.status !== 200) continue;
        // A refresh that won the race got tokens, but its session was revoked by the disable.
        const t = (await res.json()) as TokenResponse;
        recordSecret(t.access_token);
        recordSecret(t.refresh_token);
        assert.equal(
          (await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: t.refresh_token } })).status,
          401,
        );
      }
    }
  });

  it("member removals and role changes running while the member deletes their account never deadlock", async () => {
    for (let round = 0; round < 3; round++) {
      const owner = await h.signUp();
      const leaver = await h.signUp();
      const tenants = [await h.createTenant(owner), await h.createTenant(owner)];
      for (const t of tenants) {
        await h.addMember(owner, t.id, leaver, "admin");
        const key = await h.call("POST", `/v1/tenants/${t.id}/api-keys`, {
          as: leaver.identity,
          body: { name: "k", scope: "read" },
        });
        recordSecret(((await key.json()) as { secret: string }).secret);
      }
      const results = await Promise.allSettled([
        deleteAccount({ ctx: h.ctx(leaver.identity), sub: leaver.sub }),
        h.call("DELETE", `/v1/tenants/${tenants[0]!.id}/members/${leaver.sub}`, { as: owner.identity }),
        h.call("PATCH", `/v1/tenants/${tenants[1]!.id}/members/${leaver.sub}`, {
          as: owner.identity,
          body: { role: "member" },
        }),
      ]);
      assert.equal(
        results[0].status,
        "fulfilled",
        `round ${round}: ${String((results[0] as PromiseRejectedResult).reason)}`,
      );
      for (const r of results.slice(1)) {
        assert.equal(r.status, "fulfilled");
        const status = (r as PromiseFulfilledResult<Response>).value.status;
        assert.ok([200, 204, 404].includes(status), `round ${round}: ${status}`);
      }
    }
  });
});
