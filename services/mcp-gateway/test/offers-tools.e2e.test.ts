import assert from "node:assert/strict";
import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import { dayFromNow, offerRequest } from "@flowstate/offers-svc/testing/offer-fixtures";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, callTool as call, failure, ok, restAs, sellerTenant } from "./tool-calls.ts";

/**
 * The offers tools on the local stack (offers-svc behind the pipeline, the seller sandbox as the
 * seller, onboarded through the CloudFormation path): each answer is REST's for the same state.
 * Mutations are compared through their Idempotency-Key: REST sent the same key and body answers
 * the change set the tool submitted, so both doors name one change.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_off");
});
afterAll(() => stack.close());

const terminal = ["succeeded", "failed", "cancelled"];

/** Polls get_offer_change_status (the tool the offer tools point to) until the change is terminal. */
async function settled(client: Client, changeSetId: string): Promise<OfferChange> {
  const until = Date.now() + 60_000;
  for (;;) {
    const change = ok(await call(client, "get_offer_change_status", { change_set_id: changeSetId })) as OfferChange;
    if (terminal.includes(change.status)) return change;
    if (Date.now() > until) throw new Error(`change set ${changeSetId} still ${change.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("mcp-gateway offers tools", () => {
  it("answers every offers tool as REST answers the same operation in the same state, as the mcp-execution principal", async () => {
    const t = await sellerTenant(stack);
    const rest = restAs(stack);
    const connected = await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn });
    assert.equal(connected.status, 200, connected.text);
    const { client } = await signIn(stack, t.owner, `/mcp/tenants/${t.tenantId}`, ALL_SCOPES);
    const same = async (name: string, args: Record<string, unknown>, path: string) => {
      const tool = ok(await call(client, name, args));
      const answer = await rest("GET", `${t.base}/${path}`, t.owner);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(tool, answer.json, name);
      return tool;
    };

    assert.deepEqual((await same("get_seller_currencies", {}, "seller/currencies")).determined, false);

    // The seeded offers, a page at a time, then the next page by cursor; and a filter.
    const first = await same("list_private_offers", { limit: 2 }, "offers?limit=2");
    assert.equal((first.offers as unknown[]).length, 2);
    assert.ok(first.next_cursor, "the sandbox seller has more than two offers");
    const cursor = first.next_cursor as string;
    await same("list_private_offers", { limit: 2, cursor }, `offers?limit=2&cursor=${encodeURIComponent(cursor)}`);
    await same("list_private_offers", { state: "released" }, "offers?state=released");

    const agreements = await same("list_purchase_agreements", { limit: 2 }, "agreements?limit=2");
    assert.equal((agreements.agreements as unknown[]).length, 2);
    if (agreements.next_cursor) {
      const next = agreements.next_cursor as string;
      await same(
        "list_purchase_agreements",
        { limit: 2, cursor: next },
        `agreements?limit=2&cursor=${encodeURIComponent(next)}`,
      );
    }
    await same("list_purchase_agreements", { status: "active" }, "agreements?status=active");

    // Create over MCP; REST with the same key and body answers the same change set.
    const products = (await (await fetch(t.seller.control)).json()) as {
      products: { id: string; visibility: string }[];
    };
    const productId = products.products.find((p) => p.visibility === "Public")!.id;
    const body = offerRequest(productId);
    const key = `mcp-create-${t.tenantId}`;
    const handle = ok(await call(client, "create_private_offer", { ...body, idempotency_key: key }));
    assert.match(String(handle.change_set_id), /^[A-Za-z0-9]+$/);
    assert.equal(handle.location, `${t.base}/changes/${handle.change_set_id}`);
    const viaRest = await rest(
      "POST",
      `${t.base}/offers`,
      t.owner,
      { ...body, release: false },
      { "idempotency-key": key },
    );
    assert.equal(viaRest.status, 202, viaRest.text);
    assert.equal(viaRest.json.change_set_id, handle.change_set_id);
    assert.equal(viaRest.json.location, handle.location);
    // A retry of the tool call with its key is the same change set, not a second offer.
    const retried = ok(await call(client, "create_private_offer", { ...body, idempotency_key: key }));
    assert.equal(retried.change_set_id, handle.change_set_id);

    const created = await settled(client, handle.change_set_id as string);
    assert.equal(created.status, "succeeded", JSON.stringify(created));
    assert.deepEqual(created, (await rest("GET", `${t.base}/changes/${created.change_set_id}`, t.owner)).json);
    const offerId = created.offer_id!;
    assert.equal((await same("get_private_offer", { offer_id: offerId }, `offers/${offerId}`)).state, "draft");
    // The draft changed before release (update_private_offer: PATCH offers/{offer_id}).
    const updated = await settled(
      client,
      ok(await call(client, "update_private_offer", { offer_id: offerId, name: "Renamed over MCP" }))
        .change_set_id as string,
    );
    assert.equal(updated.status, "succeeded", JSON.stringify(updated));
    assert.equal(
      (await same("get_private_offer", { offer_id: offerId }, `offers/${offerId}`)).name,
      "Renamed over MCP",
    );

    const clone = ok(
      await call(client, "clone_private_offer", {
        offer_id: offerId,
        buyer_accounts: ["777788889999"],
        payment_schedule: [{ charge_date: dayFromNow(50), amount: "9000.00" }],
      }),
    );
    const cloned = await settled(client, clone.change_set_id as string);
    assert.equal(cloned.status, "succeeded", JSON.stringify(cloned));
    assert.equal(cloned.source_offer_id, offerId);
    const copy = await same("get_private_offer", { offer_id: cloned.offer_id }, `offers/${cloned.offer_id}`);
    assert.deepEqual(copy.buyer_accounts, ["777788889999"]);

    const released = await settled(
      client,
      ok(await call(client, "release_private_offer", { offer_id: offerId })).change_set_id as string,
    );
    assert.equal(released.status, "succeeded", JSON.stringify(released));
    assert.equal((await same("get_private_offer", { offer_id: offerId }, `offers/${offerId}`)).state, "released");
    const expired = await settled(
      client,
      ok(await call(client, "expire_private_offer", { offer_id: offerId })).change_set_id as string,
    );
    assert.equal(expired.status, "succeeded", JSON.stringify(expired));
    assert.equal((await same("get_private_offer", { offer_id: offerId }, `offers/${offerId}`)).state, "expired");
    assert.deepEqual(expired, (await rest("GET", `${t.base}/changes/${expired.change_set_id}`, t.owner)).json);
    // The offer's history, as REST answers it: every change above, newest first.
    const history = await same("get_offer_history", { offer_id: offerId }, `offers/${offerId}/changes`);
    assert.deepEqual(
      (history.changes as { action: string }[]).map((c) => c.action),
      ["expire", "release", "clone", "update", "create"],
    );

    // Every change the tools submitted went to the seller's account as the mcp-execution principal.
    const principals = await stack.offers.db.orm.em
      .fork()
      .execute<{ principal: string }[]>(
        `SELECT DISTINCT principal FROM "${stack.offers.db.schema}".offer_change WHERE tenant_id = ?`,
        [t.tenantId],
      );
    assert.deepEqual(
      principals.map((p) => p.principal),
      ["mcp-execution"],
    );

    // Refusals are REST's too: an unknown offer, a reused key with another body, a bad field.
    const missing = failure(await call(client, "get_private_offer", { offer_id: "offer-doesnotexist1" }));
    const missingRest = await rest("GET", `${t.base}/offers/offer-doesnotexist1`, t.owner);
    assert.equal(missing.code, missingRest.json.code);
    assert.equal(missing.message, missingRest.json.detail);
    const reused = failure(
      await call(client, "create_private_offer", { ...body, name: "Other", idempotency_key: key }),
    );
    assert.equal(reused.code, "IDEMPOTENCY_KEY_REUSED");
    const past = failure(
      await call(client, "create_private_offer", { ...body, availability_end_date: dayFromNow(-2) }),
    );
    const pastRest = await rest("POST", `${t.base}/offers`, t.owner, {
      ...body,
      availability_end_date: dayFromNow(-2),
    });
    assert.equal(past.code, "VALIDATION_FAILED");
    assert.deepEqual(past.errors, pastRest.json.errors);
    // Strict inputs: an unknown argument (a tenant id, say) is refused before any call.
    assert.equal((await call(client, "list_private_offers", { tenant_id: t.tenantId })).isError, true);
    assert.equal((await call(client, "release_private_offer", { offer_id: "not-an-offer" })).isError, true);
    await client.close();
  });

  it("refuses the offer-changing tools to a member as REST does, and to a token without marketplace:write with 403 insufficient_scope", async () => {
    const t = await sellerTenant(stack);
    const rest = restAs(stack);
    assert.equal((await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn })).status, 200);
    const member = await stack.identity.signUp();
    await stack.identity.addMember(t.owner, t.tenantId, member, "member");
    const { client } = await signIn(stack, member, `/mcp/tenants/${t.tenantId}`, ALL_SCOPES);
    const offers = ok(await call(client, "list_private_offers", { limit: 1 })) as { offers: { offer_id: string }[] };
    const offerId = offers.offers[0]!.offer_id;
    const stateOf = async () => (await rest("GET", `${t.base}/offers/${offerId}`, t.owner)).json.state as string;
    const before = await stateOf();
    const refused = failure(await call(client, "expire_private_offer", { offer_id: offerId }));
    const refusedRest = await rest("POST", `${t.base}/offers/${offerId}/expire`, member);
    assert.equal(refusedRest.status, 403, refusedRest.text);
    assert.equal(refused.code, refusedRest.json.code);

    const { token } = await signIn(stack, t.owner, `/mcp/tenants/${t.tenantId}`, "marketplace:read");
    const res = await fetch(new URL(`/mcp/tenants/${t.tenantId}`, stack.resource), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "expire_private_offer", arguments: { offer_id: offerId } },
      }),
    });
    assert.equal(res.status, 403);
    assert.match(res.headers.get("www-authenticate") ?? "", /error="insufficient_scope", scope="marketplace:write"/);
    assert.equal(await stateOf(), before, "nothing was submitted");
    await client.close();
  });
});
