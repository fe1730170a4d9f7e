import assert from "node:assert/strict";
import type { SellerAccountOptions } from "@flowstate/connector-svc/testing/seller-account";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { offerRequest } from "@flowstate/offers-svc/testing/offer-fixtures";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, callTool, failure, ok, restAs, sellerTenant as sellerTenantOf } from "./tool-calls.ts";

let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_mkt");
});
afterAll(() => stack.close());

const ALL = ALL_SCOPES;
const rest = (method: string, path: string, user: TestUser, body?: unknown) => restAs(stack)(method, path, user, body);
const sellerTenant = (options: SellerAccountOptions = {}) => sellerTenantOf(stack, options);
const call = callTool;
const withoutTime = ({ checked_at: _, ...rest }: Record<string, unknown>) => rest;

describe("mcp-gateway marketplace tools", () => {
  it("answers every marketplace tool as REST answers the same operation in the same state", async () => {
    const t = await sellerTenant();
    const { client } = await signIn(stack, t.owner, `/mcp/tenants/${t.tenantId}`, ALL);

    const before = ok(await call(client, "get_marketplace_connector_status"));
    assert.deepEqual(before, (await rest("GET", t.base, t.owner)).json);
    assert.equal(before.connected, false);
    assert.deepEqual(
      ok(await call(client, "get_marketplace_onboarding")),
      (await rest("GET", `${t.base}/onboarding`, t.owner)).json,
    );

    const connected = ok(await call(client, "connect_marketplace_connector", { role_arn: t.seller.roleArn }));
    assert.deepEqual(connected, { status: "connected", account_id: t.seller.accountId });
    assert.deepEqual(connected, (await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn })).json);
    assert.deepEqual(
      ok(await call(client, "get_marketplace_connector_status")),
      (await rest("GET", t.base, t.owner)).json,
    );

    const health = ok(await call(client, "check_marketplace_connector_health"));
    assert.deepEqual(withoutTime(health), withoutTime((await rest("GET", `${t.base}/health`, t.owner)).json));

    const page = ok(await call(client, "list_marketplace_products", { limit: 1 }));
    assert.deepEqual(page, (await rest("GET", `${t.base}/products?limit=1`, t.owner)).json);
    if (page.next_cursor) {
      const cursor = page.next_cursor as string;
      const next = ok(await call(client, "list_marketplace_products", { limit: 1, cursor }));
      assert.deepEqual(next, (await rest("GET", `${t.base}/products?limit=1&cursor=${cursor}`, t.owner)).json);
    }
    // Strict inputs: an unknown argument or a role of another name is refused before any call.
    assert.equal((await call(client, "list_marketplace_products", { tenant_id: "tnt_x" })).isError, true);
    const badArn = await call(client, "connect_marketplace_connector", {
      role_arn: "arn:aws:iam::123456789012:role/X",
    });
    assert.equal(badArn.isError, true);

    assert.deepEqual(ok(await call(client, "disconnect_marketplace_connector")), {});
    assert.equal((await rest("GET", t.base, t.owner)).json.connected, false);
    const notConnected = failure(await call(client, "list_marketplace_products"));
    assert.equal(notConnected.code, (await rest("GET", `${t.base}/products`, t.owner)).json.code);

    // One audit record per tool call, a refusal of its arguments included (the handler validates
    // them since issue 20; the SDK refused them before and nothing was recorded).
    const mine = stack.audited.filter((a) => a.tenantId === t.tenantId);
    assert.ok(mine.length >= 9, String(mine.length));
    assert.ok(mine.every((a) => a.identity.sub === t.owner.sub && a.durationMs >= 0));
    assert.deepEqual(
      mine.filter((a) => a.tool === "connect_marketplace_connector").map((a) => [a.outcome, a.code]),
      [
        ["ok", undefined],
        ["error", "VALIDATION_FAILED"],
      ],
    );
    assert.deepEqual(mine.at(-1), { ...mine.at(-1), outcome: "error", code: "CONNECTOR_NOT_CONNECTED" });
    await client.close();
  });

  it("with a backend-only trust policy, REST works and every MCP tool into the seller account is AccessDenied naming the mcp-execution principal", async () => {
    const t = await sellerTenant({ trusted: ["backend"] });
    const connected = await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn });
    assert.equal(connected.status, 200, connected.text);
    // REST (the backend principal) works for every read, and a change is accepted.
    for (const path of ["products", "offers", "agreements", "seller/currencies"]) {
      const answer = await rest("GET", `${t.base}/${path}`, t.owner);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
    }
    // Refused before anything reaches AWS's change logic: the role is not assumed, whatever the offer's state.
    const offerId = (await rest("GET", `${t.base}/offers?limit=1`, t.owner)).json.offers[0].offer_id as string;
    assert.equal((await rest("GET", `${t.base}/offers/${offerId}`, t.owner)).status, 200);
    const products = (await (await fetch(t.seller.control)).json()) as {
      products: { id: string; visibility: string }[];
    };
    const offer = offerRequest(products.products.find((p) => p.visibility === "Public")!.id);
    const created = await rest("POST", `${t.base}/offers`, t.owner, offer);
    assert.equal(created.status, 202, created.text);

    const { client } = await signIn(stack, t.owner, `/mcp/tenants/${t.tenantId}`, ALL);
    const principal = `${stack.principalPrefix}-mcp-execution`;
    const denied = async (name: string, args: Record<string, unknown> = {}) => {
      const refused = failure(await call(client, name, args));
      assert.equal(refused.code, "CONNECTOR_ACCESS_DENIED", `${name}: ${JSON.stringify(refused)}`);
      assert.equal(refused.upstream_error, "AccessDenied", name);
      assert.equal(refused.principal, "mcp-execution", name);
      assert.equal(refused.principal_role, principal, name);
    };
    // Every tool that calls into the seller's account, connector and offers alike.
    await denied("list_marketplace_products");
    await denied("list_private_offers");
    await denied("get_private_offer", { offer_id: offerId });
    await denied("list_purchase_agreements");
    await denied("get_seller_currencies");
    await denied("create_private_offer", offer);
    await denied("clone_private_offer", { offer_id: offerId });
    await denied("release_private_offer", { offer_id: offerId });
    await denied("expire_private_offer", { offer_id: offerId });
    // Connect over MCP verifies the role as the principal MCP calls use: refused at connect time,
    // naming it, instead of a "connected" that no tool could then use.
    const connect = failure(await call(client, "connect_marketplace_connector", { role_arn: t.seller.roleArn }));
    assert.equal(connect.code, "CONNECTOR_VERIFICATION_FAILED");
    assert.equal(connect.step, "assume_role");
    assert.equal(connect.upstream_error, "AccessDenied");
    assert.equal(connect.principal, "mcp-execution");
    assert.equal(connect.principal_role, principal);
    assert.match(connect.hint ?? "", new RegExp(`role/${principal}`));
    // The health check reports it too: the mcp-execution principal cannot assume the role.
    const health = ok(await call(client, "check_marketplace_connector_health")) as {
      principals: { principal: string; can_assume: boolean }[];
    };
    assert.equal(health.principals.find((p) => p.principal === "mcp-execution")?.can_assume, false);
    // Nothing was changed by the refused calls: REST still reads the connector as connected.
    assert.equal((await rest("GET", t.base, t.owner)).json.connected, true);
    await client.close();
  });

  it("takes a tenant API key on /mcp: tenant tools only, a read key refused a write tool", async () => {
    const t = await sellerTenant();
    const mint = async (scope: "read" | "write") => {
      const key = await rest("POST", `/v1/tenants/${t.tenantId}/api-keys`, t.owner, { name: "mcp", scope });
      assert.equal(key.status, 201, key.text);
      return { id: key.json.key_id as string, secret: recordSecret(key.json.secret as string) };
    };
    const [read, write] = [await mint("read"), await mint("write")];
    const rpc = (key: string, body: unknown, path = "/mcp") =>
      fetch(new URL(path, stack.resource), {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(body),
      });
    const list = await (await rpc(write.secret, { jsonrpc: "2.0", id: 1, method: "tools/list" })).json();
    const names = list.result.tools.map((tool: { name: string }) => tool.name) as string[];
    assert.ok(names.includes("list_marketplace_products"));
    for (const person of ["delete_my_account", "export_my_data", "get_my_export_status"]) {
      assert.ok(!names.includes(person), person);
    }
    const callTool = (name: string, args: unknown = {}) => ({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name, arguments: args },
    });
    const status = await (await rpc(read.secret, callTool("get_marketplace_connector_status"))).json();
    assert.deepEqual(status.result.structuredContent, (await rest("GET", t.base, t.owner)).json);
    const denied = await rpc(read.secret, callTool("connect_marketplace_connector", { role_arn: t.seller.roleArn }));
    assert.equal(denied.status, 403);
    assert.match(denied.headers.get("www-authenticate") ?? "", /error="insufficient_scope", scope="marketplace:write"/);
    const audit = stack.audited.filter((a) => a.tenantId === t.tenantId && a.identity.kind === "api_key");
    assert.deepEqual(
      audit.map((a) => [a.tool, a.outcome]),
      [
        ["get_marketplace_connector_status", "ok"],
        ["connect_marketplace_connector", "denied"],
      ],
    );
    // The key's own tenant path is accepted; another tenant's is 404.
    const other = await stack.identity.createTenant(t.owner);
    assert.equal(
      (await rpc(read.secret, callTool("get_marketplace_connector_status"), `/mcp/tenants/${t.tenantId}`)).status,
      200,
    );
    assert.equal(
      (await rpc(read.secret, callTool("get_marketplace_connector_status"), `/mcp/tenants/${other.id}`)).status,
      404,
    );

    // A key revoked at the REST door: test/credentials.e2e.test.ts (AccessRevoked through the queue).
  });

  it("answers a tenant path the user is not a member of 404, as a missing tenant", async () => {
    const t = await sellerTenant();
    const stranger = await stack.identity.signUp();
    const { token } = await signIn(stack, stranger, "/mcp", "account");
    const res = await fetch(new URL(`/mcp/tenants/${t.tenantId}`, stack.resource), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(res.status, 404);
  });
});
