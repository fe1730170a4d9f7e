import assert from "node:assert/strict";
import type { ApiKeyState, SessionState } from "@flowstate/contracts/internal/identity";
import type { CreatedApiKey } from "@flowstate/contracts/rest/identity/api-keys";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { disableAccount } from "./disable-account.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_disable" });
});
afterAll(() => h.close());

const gw = { kind: "service", service: "edge-gateway" } as const;

describe("disableAccount", () => {
  it("revokes sessions, refresh tokens, access tokens and the API keys the account created, in one go", async () => {
    const u = await h.signUp();
    const second = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
    const secondTokens = (await second.json()) as { access_token: string; refresh_token: string };
    recordSecret(secondTokens.access_token);
    recordSecret(secondTokens.refresh_token);
    const t = await h.createTenant(u);
    const keyRes = await h.call("POST", `/v1/tenants/${t.id}/api-keys`, {
      as: u.identity,
      body: { name: "bot", scope: "write" },
    });
    const key = (await keyRes.json()) as CreatedApiKey;
    recordSecret(key.secret);

    const ctx = h.ctx({ kind: "system" });
    await disableAccount({ ctx, sub: u.sub });
    assert.ok(ctx.invalidations.some((i) => i.scope === "account" && i.sub === u.sub));
    assert.ok(ctx.invalidations.some((i) => i.scope === "api_key" && i.key_id === key.key_id));

    const iat = decodeJwt(u.tokens.access_token).iat;
    for (const sid of [u.sid, decodeJwt(secondTokens.access_token).sid as string]) {
      const state = (await (
        await h.call("GET", `/internal/v1/sessions/${sid}?iat=${iat}`, { as: gw })
      ).json()) as SessionState;
      assert.equal(state.active, false, sid);
    }
    for (const rt of [u.tokens.refresh_token, secondTokens.refresh_token]) {
      assert.equal((await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: rt } })).status, 401);
    }
    const keyState = (await (
      await h.call("POST", "/internal/v1/api-keys/verify", { as: gw, body: { key: key.secret } })
    ).json()) as ApiKeyState;
    assert.equal(keyState.active, false);
    assert.equal((await h.call("GET", `/internal/v1/tenants/${t.id}/members/${u.sub}`, { as: gw })).status, 404);
    const events = await outboxEvents(h);
    assert.ok(events.some((e) => e.event_key === "AccountDisabled.v1" && e.envelope.data.sub === u.sub));
    assert.ok(
      events.some(
        (e) =>
          e.event_key === "AccessRevoked.v1" && e.envelope.data.scope === "account" && e.envelope.data.sub === u.sub,
      ),
    );
  });

  it("is idempotent", async () => {
    const u = await h.signUp();
    const first = await disableAccount({ ctx: h.ctx({ kind: "system" }), sub: u.sub });
    const again = await disableAccount({ ctx: h.ctx({ kind: "system" }), sub: u.sub });
    assert.equal(again.disabled_at, first.disabled_at);
  });
});

describe("the internal session check", () => {
  it("is active for a live session, and refuses a token issued before tokens_valid_after", async () => {
    const u = await h.signUp();
    const iat = decodeJwt(u.tokens.access_token).iat!;
    const live = (await (
      await h.call("GET", `/internal/v1/sessions/${u.sid}?iat=${iat}`, { as: gw })
    ).json()) as SessionState;
    assert.deepEqual(live, { sid: u.sid, sub: u.sub, active: true, tokens_valid_after: new Date(0).toISOString() });
    assert.equal((await h.call("GET", "/internal/v1/sessions/ses_0000000000unknown0000", { as: gw })).status, 404);
    assert.equal((await h.call("GET", "/internal/v1/sessions/not-a-sid", { as: gw })).status, 400);
  });
});
