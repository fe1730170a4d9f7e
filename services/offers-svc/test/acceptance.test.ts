import assert from "node:assert/strict";
import {
  type ConnectedTenant,
  type MarketplaceStack,
  startMarketplaceStack,
} from "@flowstate/connector-svc/testing/marketplace-stack";
import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { captureLogs } from "@flowstate/shared/log/capture";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { dayFromNow, offerRequest } from "../src/testing/offer-fixtures.ts";
import { type RunningOffers, startOffersService } from "../src/testing/offers-service.ts";

/**
 * offers-svc's acceptance on the local stack: identity-svc, connector-svc, offers-svc and the real
 * edge-gateway in front, the seller sandbox as the seller, each tenant onboarded the way a seller
 * does it (flag on, the onboarding bundle's CloudFormation template deployed into a seller account
 * of the emulator, POST connect). Every call goes through the gateway with a user's token.
 */
const logs = captureLogs();
let stack: MarketplaceStack;
let offers: RunningOffers;
beforeAll(async () => {
  stack = await startMarketplaceStack({
    prefix: "offers_e2e",
    services: async (basics) => {
      offers = await startOffersService({
        prefix: "offers_e2e_of",
        secret: basics.secret,
        connectorUrl: basics.connectorUrl,
        marketplaceEndpoint: basics.sandbox.endpoint,
        identityUrl: basics.identityUrl,
        env: { SELLER_CURRENCIES_TTL_SECONDS: "2" },
        logTo: logs.stream,
      });
      return { "offers-svc": offers.url };
    },
  });
});
afterAll(async () => {
  await stack?.close();
  await offers?.close();
});

const M = (t: ConnectedTenant, rest: string) => `/v1/tenants/${t.tenantId}/integrations/marketplace/${rest}`;
const as = (t: ConnectedTenant, body?: unknown, headers?: Record<string, string>) => ({
  token: t.owner.token,
  ...(body !== undefined ? { body } : {}),
  ...(headers ? { headers } : {}),
});
async function expect(
  t: ConnectedTenant,
  method: string,
  rest: string,
  status: number,
  body?: unknown,
  headers?: Record<string, string>,
) {
  const res = await stack.call(method, M(t, rest), as(t, body, headers));
  assert.equal(res.status, status, `${method} ${rest}: ${res.text}`);
  return res;
}
async function settled(t: ConnectedTenant, changeSetId: string): Promise<OfferChange> {
  const until = Date.now() + 30_000;
  for (;;) {
    const change = (await expect(t, "GET", `changes/${changeSetId}`, 200)).json as OfferChange;
    if (["succeeded", "failed", "cancelled"].includes(change.status)) return change;
    if (Date.now() > until) throw new Error(`change set ${changeSetId} still ${change.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const publicProduct = async (t: ConnectedTenant) =>
  ((await (await fetch(t.seller.control)).json()) as { products: { id: string; visibility: string }[] }).products.find(
    (p) => p.visibility === "Public",
  )!.id;
const outbox = async (tenantId: string, key: string) =>
  offers.db.orm.em
    .fork()
    .execute<{ envelope: { data: Record<string, unknown> } }[]>(
      `SELECT envelope FROM "${offers.db.schema}".outbox_event WHERE envelope->>'tenant_id' = ? AND event_key = ? ORDER BY seq`,
      [tenantId, key],
    );

describe("offers-svc acceptance through the gateway", () => {
  it("creates, reads, clones (new buyer and price), releases and expires an offer; a release without buyers fails with AWS's code", async () => {
    const t = await stack.connectedTenant();
    const productId = await publicProduct(t);
    const created = await settled(
      t,
      (await expect(t, "POST", "offers", 202, offerRequest(productId))).json.change_set_id,
    );
    assert.equal(created.status, "succeeded");
    const offerId = created.offer_id!;
    assert.equal((await expect(t, "GET", `offers/${offerId}`, 200)).json.state, "draft");

    const cloned = await settled(
      t,
      (
        await expect(t, "POST", `offers/${offerId}/clone`, 202, {
          buyer_accounts: ["777788889999"],
          pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: "BasicService" }] },
          payment_schedule: [{ charge_date: dayFromNow(50), amount: "9000.00" }],
        })
      ).json.change_set_id,
    );
    assert.equal(cloned.status, "succeeded");
    const copy = (await expect(t, "GET", `offers/${cloned.offer_id}`, 200)).json;
    assert.deepEqual(copy.buyer_accounts, ["777788889999"]);
    assert.deepEqual(copy.payment_schedule, [{ charge_date: dayFromNow(50), amount: "9000.00" }]);

    assert.equal(
      (await settled(t, (await expect(t, "POST", `offers/${offerId}/release`, 202)).json.change_set_id)).status,
      "succeeded",
    );
    assert.equal((await expect(t, "GET", `offers/${offerId}`, 200)).json.state, "released");
    assert.equal(
      (await settled(t, (await expect(t, "POST", `offers/${offerId}/expire`, 202)).json.change_set_id)).status,
      "succeeded",
    );
    assert.equal((await expect(t, "GET", `offers/${offerId}`, 200)).json.state, "expired");

    const { buyer_accounts: _, ...noBuyers } = offerRequest(productId);
    const draft = await settled(t, (await expect(t, "POST", "offers", 202, noBuyers)).json.change_set_id);
    const failed = await settled(
      t,
      (await expect(t, "POST", `offers/${draft.offer_id}/release`, 202)).json.change_set_id,
    );
    assert.equal(failed.status, "failed");
    const errors = failed.changes.flatMap((c) => c.errors);
    assert.deepEqual(
      errors.map((e) => e.code),
      ["INVALID_BUYER_ACCOUNTS"],
    );
    assert.match(errors[0]!.message, /buyer/);
  });

  it("cannot determine a current role's seller currencies (AWS documents none), accepts offers unchecked, and AWS refuses a currency the seller is not paid in", async () => {
    const t = await stack.connectedTenant();
    const productId = await publicProduct(t);
    const currencies = (await expect(t, "GET", "seller/currencies", 200)).json;
    assert.equal(currencies.determined, false);
    assert.equal(currencies.reason_code, "NOT_DOCUMENTED_BY_AWS");
    const priced = (currency: string) =>
      offerRequest(productId, {
        pricing: { model: "contract", currency, price: "0.00", dimensions: [{ key: "BasicService" }] },
      } as never);
    const eur = (await expect(t, "POST", "offers", 202, priced("EUR"))).json;
    assert.equal(eur.currency_not_checked.reason_code, "NOT_DOCUMENTED_BY_AWS");
    assert.equal((await settled(t, eur.change_set_id)).status, "succeeded");
    const gbp = await settled(t, (await expect(t, "POST", "offers", 202, priced("GBP"))).json.change_set_id);
    assert.equal(gbp.status, "failed");
    assert.deepEqual(
      [...new Set(gbp.changes.flatMap((c) => c.errors.map((e) => e.code)))],
      ["INCOMPATIBLE_PAYMENT_SETTINGS"],
    );
    const health = (await stack.call("GET", M(t, "health"), as(t))).json;
    const check = health.capabilities.find((c: { capability: string }) => c.capability === "seller_currencies");
    assert.equal(check.note?.code, "NOT_DOCUMENTED_BY_AWS", "health says the currencies cannot be determined");
  });

  it("on the legacy stack: agreements 500 INTERNAL_ERROR with the cause only in the log, currencies undetermined, offers and products work; after the stack update both work, same connector", async () => {
    const t = await stack.connectedTenant({ version: "legacy" });
    const agreements = (await expect(t, "GET", "agreements", 500)).json;
    assert.equal(agreements.code, "INTERNAL_ERROR");
    assert.doesNotMatch(JSON.stringify(agreements), /AccessDenied|SearchAgreements|arn:/);
    const line = logs.lines.find((l) => l["request_id"] === agreements.request_id && l["status"] === 500);
    assert.match(JSON.stringify(line?.["err"] ?? {}), /AccessDeniedException/);
    const currencies = (await expect(t, "GET", "seller/currencies", 200)).json;
    assert.equal(currencies.determined, false);
    assert.equal(currencies.health, `/v1/tenants/${t.tenantId}/integrations/marketplace/health`);
    await expect(t, "GET", "offers", 200);
    await expect(t, "GET", "products", 200);
    // Create, clone, release and expire keep working: the currency is AWS's to decide, and the
    // answers of create and clone say it was not checked and why (decisions.md "Legacy connector role").
    const productId = await publicProduct(t);
    const create = (await expect(t, "POST", "offers", 202, offerRequest(productId, { name: "Legacy" }))).json;
    assert.equal(create.currency_not_checked?.reason_code, "CONNECTOR_POLICY_OUTDATED");
    assert.equal(create.currency_not_checked?.health, currencies.health);
    const created = await settled(t, create.change_set_id);
    assert.equal(created.status, "succeeded");
    const clone = (await expect(t, "POST", `offers/${created.offer_id}/clone`, 202, { name: "Legacy clone" })).json;
    assert.equal(clone.currency_not_checked?.reason_code, "CONNECTOR_POLICY_OUTDATED");
    assert.equal((await settled(t, clone.change_set_id)).status, "succeeded");
    for (const verb of ["release", "expire"]) {
      const handle = (await expect(t, "POST", `offers/${created.offer_id}/${verb}`, 202)).json;
      assert.equal((await settled(t, handle.change_set_id)).status, "succeeded", verb);
    }
    assert.equal((await expect(t, "GET", `offers/${created.offer_id}`, 200)).json.state, "expired");

    await t.seller.update("current");
    const until = Date.now() + 30_000;
    let ok = false;
    while (!ok && Date.now() < until) {
      const a = await stack.call("GET", M(t, "agreements"), as(t));
      const c = await stack.call("GET", M(t, "seller/currencies"), as(t));
      ok = a.status === 200 && c.json.reason_code === "NOT_DOCUMENTED_BY_AWS";
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(ok, "agreements and currencies work after the stack update");
    const status = await stack.call("GET", `/v1/tenants/${t.tenantId}/integrations/marketplace`, as(t));
    assert.equal(status.json.role_arn, t.roleArn, "no reconnect: the same role");
  });

  it("changes a draft before release and shows it in the offer's history; refuses a released offer's change at once", async () => {
    const t = await stack.connectedTenant();
    const productId = await publicProduct(t);
    const created = await settled(
      t,
      (await expect(t, "POST", "offers", 202, offerRequest(productId))).json.change_set_id,
    );
    const offerId = created.offer_id!;
    const update = (
      await expect(t, "PATCH", `offers/${offerId}`, 202, { name: "Acme, renewed", validity: { duration: "P24M" } })
    ).json;
    const updated = await settled(t, update.change_set_id);
    assert.equal(updated.status, "succeeded");
    assert.deepEqual(
      updated.changes.map((c) => c.change_type),
      ["UpdateInformation", "UpdateValidityTerms"],
    );
    const offer = (await expect(t, "GET", `offers/${offerId}`, 200)).json;
    assert.deepEqual([offer.name, offer.validity], ["Acme, renewed", { duration: "P24M" }]);
    await settled(t, (await expect(t, "POST", `offers/${offerId}/release`, 202)).json.change_set_id);
    assert.equal(
      (await expect(t, "PATCH", `offers/${offerId}`, 409, { name: "Too late" })).json.code,
      "OFFER_NOT_DRAFT",
    );
    assert.equal((await expect(t, "POST", `offers/${offerId}/release`, 409)).json.code, "OFFER_ALREADY_RELEASED");
    const history = (await expect(t, "GET", `offers/${offerId}/changes`, 200)).json;
    assert.deepEqual(
      history.changes.map((c: { action: string }) => c.action),
      ["release", "update", "create"],
    );
    const events = await outbox(t.tenantId, "OfferChangeSucceeded.v2");
    assert.deepEqual(
      events.map((e) => e.envelope.data["action"]),
      ["create", "update", "release"],
    );
  });

  it("answers a principal the seller's role refuses with the same CONNECTOR_ACCESS_DENIED problem from connector-svc and offers-svc", async () => {
    const t = await stack.connectedTenant({ trusted: ["backend"] });
    // What mcp-gateway sends each service for an MCP caller (channel mcp: the mcp-execution principal).
    const asMcp = async (service: "connector-svc" | "offers-svc", baseUrl: string, rest: string) => {
      const path = M(t, rest);
      const res = await fetch(`${baseUrl}${path}`, {
        headers: {
          [IDENTITY_HEADER]: signedAs(stack.secret, service, bodyless("GET", path), {
            identity: { kind: "user", sub: t.owner.sub, sid: "ses_0123456789abcdefghij" },
            tenant: { tenant_id: t.tenantId, role: "owner" },
            channel: "mcp",
          }),
        },
      });
      assert.equal(res.status, 409, `${rest}: ${res.status}`);
      assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
      const { request_id: _, instance: __, ...problem } = (await res.json()) as Record<string, unknown>;
      return problem;
    };
    const fromConnector = await asMcp("connector-svc", stack.connectorUrl, "products");
    assert.equal(fromConnector["code"], "CONNECTOR_ACCESS_DENIED");
    assert.equal(fromConnector["principal"], "mcp-execution");
    assert.equal(fromConnector["health"], `/v1/tenants/${t.tenantId}/integrations/marketplace/health`);
    for (const rest of ["offers", "seller/currencies", "agreements"]) {
      assert.deepEqual(await asMcp("offers-svc", offers.url, rest), fromConnector, rest);
    }
  });

  it("makes one offer for the same create sent twice with one key, also at once", async () => {
    const t = await stack.connectedTenant();
    const body = offerRequest(await publicProduct(t), { name: "Once only" });
    const key = { "idempotency-key": "acceptance-once" };
    const answers = await Promise.all([1, 2, 3].map(() => expect(t, "POST", "offers", 202, body, key)));
    const again = await expect(t, "POST", "offers", 202, body, key);
    const ids = new Set([...answers, again].map((a) => a.json.change_set_id));
    assert.equal(ids.size, 1);
    await settled(t, [...ids][0]);
    const account = (await (await fetch(t.seller.control)).json()) as { offers: { name?: string }[] };
    assert.equal(account.offers.filter((o) => o.name === "Once only").length, 1);
  });

  it("finishes every change set in flight across a restart of offers-svc, with exactly one event each", async () => {
    const t = await stack.connectedTenant();
    const productId = await publicProduct(t);
    await fetch(`${t.seller.control}/timing`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ changeSetStepMs: 1500 }),
    });
    const ids: string[] = [];
    for (const name of ["R1", "R2", "R3"])
      ids.push((await expect(t, "POST", "offers", 202, offerRequest(productId, { name }))).json.change_set_id);
    await offers.restart();
    for (const id of ids) assert.equal((await settled(t, id)).status, "succeeded");
    const events = await outbox(t.tenantId, "OfferChangeSucceeded.v2");
    assert.deepEqual(events.map((e) => e.envelope.data["change_set_id"]).sort(), [...ids].sort());
  });

  it("answers 403 FEATURE_DISABLED on every offers route while the flag is off, and 503 with Retry-After when the seller's account fails", async () => {
    const t = await stack.connectedTenant();
    await stack.call("PUT", `/v1/tenants/${t.tenantId}/features`, as(t, { marketplace_offers: false }));
    const off = await stack.call("GET", M(t, "offers"), as(t));
    assert.equal(off.status, 403);
    assert.equal(off.json.code, "FEATURE_DISABLED");
    await stack.call("PUT", `/v1/tenants/${t.tenantId}/features`, as(t, { marketplace_offers: true }));
    await fetch(`${t.seller.control}/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults: [{ kind: "error", operations: ["ListEntities"] }] }),
    });
    const until = Date.now() + 5_000;
    let res = await stack.call("GET", M(t, "offers"), as(t));
    while (res.status === 403 && Date.now() < until) res = await stack.call("GET", M(t, "offers"), as(t));
    assert.equal(res.status, 503, res.text);
    assert.equal(res.json.code, "UPSTREAM_UNAVAILABLE");
    assert.ok(Number(res.headers.get("retry-after")) > 0);
  });
});
