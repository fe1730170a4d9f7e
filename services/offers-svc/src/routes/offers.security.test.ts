import assert from "node:assert/strict";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_security" });
});
afterAll(() => h.close());

type Problem = { code: string; request_id?: string };
const key = (tenantId: string, scope: "read" | "write") =>
  ({
    kind: "api_key",
    key_id: `key_${scope}0123456789`,
    sub: "usr_keycreator0001",
    tenant_id: tenantId,
    scope,
  }) as const;

describe("offers-svc's own checks behind the gateway", () => {
  it("refuses a request without a genuine assertion bound to it, or without the caller's channel", async () => {
    const { t } = await connectedTenant(h);
    const path = marketplace(t.id, "offers");
    assert.equal((await answer<Problem>(await h.call("GET", path), 401)).code, "UNAUTHENTICATED");
    const tenant = { tenant_id: t.id, role: "member" as const };
    const sign = (target: string, assertion: object) =>
      signedAs(h.secret, "offers-svc", bodyless("GET", target), assertion as never);
    const send = (header: string) => h.app.request(path, { headers: { [IDENTITY_HEADER]: header } });
    // Genuine, but for another request: worthless here.
    const elsewhere = sign(marketplace(t.id, "agreements"), { identity: t.member, tenant, channel: "rest" });
    assert.equal((await send(elsewhere)).status, 401);
    // Genuine and bound, but not saying which door the caller came through: no principal to use.
    assert.equal((await send(sign(path, { identity: t.member, tenant }))).status, 401);
    // Another key's signature.
    const forged = signedAs("not-the-key", "offers-svc", bodyless("GET", path), {
      identity: t.member,
      tenant,
      channel: "rest",
    });
    assert.equal((await send(forged)).status, 401);
    assert.equal((await send(sign(path, { identity: t.member, tenant, channel: "rest" }))).status, 200);
    // A tenant context the gateway resolved for another tenant never opens this one.
    const otherTenant = { tenant_id: h.tenant().id, role: "admin" };
    assert.equal((await send(sign(path, { identity: t.member, tenant: otherTenant, channel: "rest" }))).status, 404);
  });

  it("re-checks the route's role and API-key scope, and names an API key as the actor", async () => {
    const { t, productId } = await connectedTenant(h);
    const path = marketplace(t.id, "offers");
    const byMember = await h.call("POST", path, { as: t.member, role: "member", body: offerRequest(productId) });
    assert.equal((await answer<Problem>(byMember, 403)).code, "INSUFFICIENT_ROLE");
    const byReadKey = await h.call("POST", path, {
      as: key(t.id, "read"),
      role: "admin",
      body: offerRequest(productId),
    });
    assert.equal((await answer<Problem>(byReadKey, 403)).code, "INSUFFICIENT_SCOPE");
    await answer(await h.call("GET", path, { as: key(t.id, "read"), role: "admin" }), 200);
    const byWriteKey = await answer<ChangeHandle>(
      await h.call("POST", path, { as: key(t.id, "write"), role: "admin", body: offerRequest(productId) }),
      202,
    );
    await h.waitForChange(t, byWriteKey.change_set_id);
    const [requested] = await outboxEvents(h, t.id, "OfferChangeRequested.v2");
    assert.deepEqual(requested?.envelope.actor, {
      kind: "api_key",
      key_id: "key_write0123456789",
      sub: "usr_keycreator0001",
    });
  });

  it("shows another tenant's change sets and offers exactly like missing ones", async () => {
    const a = await connectedTenant(h);
    const b = await connectedTenant(h);
    const handle = await answer<ChangeHandle>(
      await h.call("POST", marketplace(a.t.id, "offers"), { as: a.t.admin, body: offerRequest(a.productId) }),
      202,
    );
    const change = await h.waitForChange(a.t, handle.change_set_id);
    const strip = ({ request_id: _, ...rest }: Problem) => rest;
    const foreign = await answer<Problem>(
      await h.call("GET", marketplace(b.t.id, `changes/${handle.change_set_id}`), { as: b.t.member, role: "member" }),
      404,
    );
    const missing = await answer<Problem>(
      await h.call("GET", marketplace(b.t.id, "changes/doesnotexist0000000000000"), { as: b.t.member, role: "member" }),
      404,
    );
    assert.deepEqual(strip(foreign), strip(missing));
    for (const verb of [
      ["GET", `offers/${change.offer_id}`],
      ["POST", `offers/${change.offer_id}/release`],
      ["POST", `offers/${change.offer_id}/expire`],
    ] as const) {
      const res = await h.call(verb[0], marketplace(b.t.id, verb[1]), { as: b.t.admin });
      assert.equal((await answer<Problem>(res, 404)).code, "NOT_FOUND", verb.join(" "));
    }
  });

  it("reaches the seller's account as the caller's channel principal: MCP fails where only the backend is trusted", async () => {
    const t = h.tenant();
    await h.connect(t.id, { trusted: ["backend"] });
    await answer(
      await h.call("GET", marketplace(t.id, "offers"), { as: t.member, role: "member", channel: "rest" }),
      200,
    );
    const mcp = await answer<Problem & { principal: string; upstream_error: string }>(
      await h.call("GET", marketplace(t.id, "offers"), { as: t.member, role: "member", channel: "mcp" }),
      409,
    );
    assert.equal(mcp.code, "CONNECTOR_ACCESS_DENIED");
    assert.equal(mcp.principal, "mcp-execution");
    assert.equal(mcp.upstream_error, "AccessDenied");
  });
});
