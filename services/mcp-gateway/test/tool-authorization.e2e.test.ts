import assert from "node:assert/strict";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { offerRequest, replacementRequest } from "@flowstate/offers-svc/testing/offer-fixtures";
import { afterAll, beforeAll, describe, it } from "vitest";
import { tools } from "../src/tools/index.ts";
import type { Scope } from "../src/tools/tool.ts";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, restAs, sellerTenant } from "./tool-calls.ts";

/**
 * Issue 20: a tool call is authorized where it runs (the tool's scope, the tenant chosen at
 * consent, person or key), whatever the envelope. A JSON-RPC batch once skipped the door's scope
 * check (which read the body's shape) and ran every call in it; MCP 2025-06-18 removed batching,
 * so an array body is refused before anything runs. Each batch here would have an effect if it
 * ran (connect, disconnect, an offer change, an export, the deletion of an account).
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_authz");
});
afterAll(() => stack.close());

const post = (token: string, body: unknown, path: string) =>
  fetch(new URL(path, stack.resource), {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(body),
  });
const callOf = (name: string, args: Record<string, unknown>, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** A batch is refused as an Invalid Request (JSON-RPC 2.0 §5.1: id null when it cannot be known). */
async function assertBatchRefused(res: Response, what: string) {
  const text = await res.text();
  assert.equal(res.status, 400, `${what}: ${text}`);
  assert.deepEqual(JSON.parse(text).error.code, -32600, what);
  assert.equal(JSON.parse(text).id, null, what);
}

/** A tenant with a seller account (not yet connected), its owner, a member, and a second tenant of the owner. */
async function world() {
  const t = await sellerTenant(stack);
  const member = await stack.identity.signUp();
  await stack.identity.addMember(t.owner, t.tenantId, member, "member");
  const other = await stack.identity.createTenant(t.owner);
  const rest = restAs(stack);
  /** What any of the tools could change: the connector, offer changes, exports, the member's account. */
  const effects = async () => ({
    connector: (await rest("GET", t.base, t.owner)).json,
    offerChanges: (
      await stack.offers.db.orm.em
        .fork()
        .execute<{ n: string }[]>(
          `SELECT count(*) AS n FROM "${stack.offers.db.schema}".offer_change WHERE tenant_id = ?`,
          [t.tenantId],
        )
    )[0]!.n,
    exports: (
      await stack.privacy.db.orm.em
        .fork()
        .execute<{ n: string }[]>(
          `SELECT count(*) AS n FROM "${stack.privacy.db.schema}".export_job WHERE sub IN (?, ?)`,
          [t.owner.sub, member.sub],
        )
    )[0]!.n,
    member: (await rest("GET", "/v1/users/me", member)).status,
  });
  return { t, member, other, rest, effects };
}

/** Arguments with which each tool would do its work in tenant `t` (connected, with the sandbox's offers). */
async function argumentsFor(t: Awaited<ReturnType<typeof sellerTenant>>, owner: TestUser) {
  const offers = (await restAs(stack)("GET", `${t.base}/offers?limit=50`, owner)).json.offers as {
    offer_id: string;
    state: string;
  }[];
  const released = offers.find((o) => o.state === "released")!.offer_id;
  const products = (await (await fetch(t.seller.control)).json()) as { products: { id: string; visibility: string }[] };
  const productId = products.products.find((p) => p.visibility === "Public")!.id;
  const seeded = (await (await fetch(t.seller.control)).json()) as { agreements: { id: string; status: string }[] };
  const agreementId = seeded.agreements.find((a) => a.status === "ACTIVE")!.id;
  const args: Record<string, Record<string, unknown>> = {
    clone_private_offer: { offer_id: released },
    connect_marketplace_connector: { role_arn: t.seller.roleArn },
    create_private_offer: offerRequest(productId),
    create_replacement_offer: { agreement_id: agreementId, ...replacementRequest() },
    delete_my_account: { confirm: "delete" },
    expire_private_offer: { offer_id: released },
    get_my_export_status: { job_id: "exp_0000000000000000000000" },
    get_offer_change_status: { change_set_id: "abc123" },
    get_private_offer: { offer_id: released },
    list_marketplace_products: { limit: 1 },
    list_private_offers: { limit: 1 },
    list_purchase_agreements: { limit: 1 },
    release_private_offer: { offer_id: released },
    update_private_offer: { offer_id: released, name: "Renamed" },
    get_offer_history: { offer_id: released },
  };
  return (name: string) => args[name] ?? {};
}

describe("mcp-gateway: every tool call is authorized where it runs", () => {
  it("refuses a JSON-RPC batch of any tool with a token lacking its scope, before anything runs", async () => {
    const { t, member, rest, effects } = await world();
    const path = `/mcp/tenants/${t.tenantId}`;
    // Each scope's missing-scope token: account only (no tenant) for reads, read for writes, and
    // the member's read token for the person tools (a member owns nothing, so deletion would work).
    const accountOnly = (await signIn(stack, t.owner, "/mcp", "account")).token;
    const readOnly = (await signIn(stack, t.owner, path, "marketplace:read", t.tenantId)).token;
    const memberRead = (await signIn(stack, member, path, "marketplace:read", t.tenantId)).token;
    const lacking: Record<Scope, string> = {
      "marketplace:read": accountOnly,
      "marketplace:write": readOnly,
      account: memberRead,
    };

    // Connect first, while the tenant has no connector: the batch must not connect it.
    const connect = tools.find((tool) => tool.name === "connect_marketplace_connector")!;
    await assertBatchRefused(
      await post(lacking[connect.scope], [callOf(connect.name, { role_arn: t.seller.roleArn })], path),
      connect.name,
    );
    assert.equal((await rest("GET", t.base, t.owner)).json.connected, false, "the batch connected nothing");
    assert.equal((await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn })).status, 200);

    const argsOf = await argumentsFor(t, t.owner);
    const before = await effects();
    for (const tool of tools.filter((tool) => tool !== connect)) {
      const res = await post(lacking[tool.scope], [callOf(tool.name, argsOf(tool.name))], path);
      await assertBatchRefused(res, `${tool.name} without ${tool.scope}`);
      assert.deepEqual(await effects(), before, `${tool.name}: a refused batch changed nothing`);
    }
    // Also a batch of one allowed call and one that is not, and a batch to /mcp.
    await assertBatchRefused(
      await post(
        readOnly,
        [callOf("get_marketplace_connector_status", {}), callOf("disconnect_marketplace_connector", {}, 2)],
        path,
      ),
      "mixed batch",
    );
    await assertBatchRefused(await post(memberRead, [callOf("export_my_data", {})], "/mcp"), "batch at /mcp");
    assert.deepEqual(await effects(), before);
  });

  it("refuses a JSON-RPC batch of any tool with a token consented for another tenant of the same person", async () => {
    const { t, other, rest, effects } = await world();
    assert.equal((await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn })).status, 200);
    const foreign = (await signIn(stack, t.owner, `/mcp/tenants/${other.id}`, ALL_SCOPES, other.id)).token;
    const argsOf = await argumentsFor(t, t.owner);
    const before = await effects();
    for (const tool of tools) {
      for (const path of [`/mcp/tenants/${t.tenantId}`, "/mcp"]) {
        const res = await post(foreign, [callOf(tool.name, argsOf(tool.name))], path);
        await assertBatchRefused(res, `${tool.name} at ${path} with a token for ${other.id}`);
      }
      assert.deepEqual(await effects(), before, `${tool.name}: a refused batch changed nothing`);
    }
  });

  it("answers a tenant other than the one chosen at consent 404, as an unknown tenant, though the person is a member", async () => {
    const { t, other } = await world();
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const forOther = (await signIn(stack, t.owner, `/mcp/tenants/${other.id}`, ALL_SCOPES, other.id)).token;
    assert.equal((await post(forOther, list, `/mcp/tenants/${other.id}`)).status, 200, "its own tenant");
    const foreign = await post(forOther, callOf("get_marketplace_onboarding", {}), `/mcp/tenants/${t.tenantId}`);
    const foreignText = await foreign.text();
    assert.equal(foreign.status, 404, foreignText);
    assert.doesNotMatch(foreignText, /external_id/);
    const unknown = await post(forOther, list, "/mcp/tenants/tnt_00000000000000000000000000");
    assert.equal(unknown.status, 404);
    assert.deepEqual(JSON.parse(foreignText), await unknown.json(), "a foreign tenant looks missing");
  });

  it("answers a token consented with no tenant (account scope only) 404 on any tenant path; /mcp serves its person tools", async () => {
    const { t } = await world();
    const accountOnly = (await signIn(stack, t.owner, "/mcp", "account")).token;
    const path = `/mcp/tenants/${t.tenantId}`;
    assert.equal((await post(accountOnly, { jsonrpc: "2.0", id: 1, method: "tools/list" }, path)).status, 404);
    assert.equal((await post(accountOnly, callOf("get_marketplace_onboarding", {}), path)).status, 404);
    const atRoot = await post(
      accountOnly,
      callOf("get_my_export_status", { job_id: "exp_0000000000000000000000" }),
      "/mcp",
    );
    assert.equal(atRoot.status, 200);
    assert.match(await atRoot.text(), /NOT_FOUND/);
  });
});
