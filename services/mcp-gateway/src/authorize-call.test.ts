import assert from "node:assert/strict";
import type { CallerIdentity } from "@flowstate/edge-gateway/pipeline";
import { offerRequest, replacementRequest } from "@flowstate/offers-svc/testing/offer-fixtures";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, it } from "vitest";
import { buildServer, type Caller } from "./server.ts";
import { tools } from "./tools/index.ts";
import type { Scope, ToolSpec } from "./tools/tool.ts";

/**
 * The per-call authorization (authorize-call.ts) in the tool handler, without the HTTP door: the
 * door's own checks (scope of a single call, tenant path) are not here, so this is what holds for
 * any envelope that reaches the SDK (a batch did, issue 20). The pipeline is a recorder: a refused
 * call must never reach it.
 */
const ALL: Scope[] = ["marketplace:read", "marketplace:write", "account"];
const person: CallerIdentity = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" };
const key: CallerIdentity = {
  kind: "api_key",
  sub: "usr_0123456789ab",
  key_id: "key_0123456789ab",
  tenant_id: "tnt_0123456789ab",
  scope: "write",
};

/** Arguments each tool's schema accepts, so a refusal is the authorization's, not validation's. */
const ARGS: Record<string, Record<string, unknown>> = {
  clone_private_offer: { offer_id: "offer-abc123" },
  connect_marketplace_connector: { role_arn: "arn:aws:iam::123456789012:role/MarketplaceConnector" },
  create_private_offer: offerRequest("prod-abc123"),
  create_replacement_offer: { agreement_id: "agmt-abc123", ...replacementRequest() },
  delete_my_account: { confirm: "delete" },
  expire_private_offer: { offer_id: "offer-abc123" },
  get_my_export_status: { job_id: "exp_0000000000000000000000" },
  get_offer_change_status: { change_set_id: "abc123" },
  get_private_offer: { offer_id: "offer-abc123" },
  release_private_offer: { offer_id: "offer-abc123" },
  update_private_offer: { offer_id: "offer-abc123", name: "Renamed" },
  get_offer_history: { offer_id: "offer-abc123" },
  create_notification_endpoint: { url: "https://hooks.example.com/flowstate" },
  list_notification_deliveries: { endpoint_id: "whe_0123456789abcdef" },
  replay_notification_delivery: { endpoint_id: "whe_0123456789abcdef", delivery_id: "dlv_0123456789abcdef" },
  delete_notification_endpoint: { endpoint_id: "whe_0123456789abcdef" },
  enable_notification_endpoint: { endpoint_id: "whe_0123456789abcdef" },
  rotate_notification_endpoint_secret: { endpoint_id: "whe_0123456789abcdef" },
};

/** Calls `tool` as `caller` through the official client; returns the result and how many pipeline calls it made. */
async function callAs(tool: ToolSpec, caller: Omit<Caller, "authorization" | "requestId" | "address">) {
  let sent = 0;
  const full: Caller = { authorization: "Bearer unused", requestId: "req_authz", address: "127.0.0.1", ...caller };
  const server = buildServer(
    full,
    {
      call: async () => {
        sent++;
        return { status: 200, headers: {}, body: Buffer.from("{}") };
      },
    },
    tool,
  );
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "authorize-call-test", version: "0" });
  await client.connect(clientSide);
  const result = await client.callTool({ name: tool.name, arguments: ARGS[tool.name] ?? {} });
  await client.close();
  const text = (result.content as { text: string }[])[0]?.text ?? "";
  // The recorder's `{}` is no refusal (it has no code); refusals carry theirs.
  const code = text.startsWith("{") ? (JSON.parse(text) as { code?: string }).code : undefined;
  return { result, code, sent, full };
}

describe("authorizeCall, in the tool handler", () => {
  it("refuses every tool to a caller whose grant lacks its scope, before any pipeline call", async () => {
    for (const tool of tools) {
      const scopes = new Set(ALL.filter((s) => s !== tool.scope));
      const r = await callAs(tool, {
        identity: person,
        grant: { scopes, tenantId: "tnt_0123456789ab" },
        tenantId: "tnt_0123456789ab",
      });
      assert.equal(r.code, "INSUFFICIENT_SCOPE", tool.name);
      assert.equal(r.sent, 0, `${tool.name} reached the pipeline`);
      assert.deepEqual(r.full.challenge, { status: 403, scope: tool.scope }, tool.name);
    }
  });

  it("refuses every tenant tool in a tenant other than the grant's (404 NOT_FOUND), and runs person tools", async () => {
    for (const tool of tools) {
      const r = await callAs(tool, {
        identity: person,
        grant: { scopes: new Set(ALL), tenantId: "tnt_aaaaaaaaaaaa" },
        tenantId: "tnt_bbbbbbbbbbbb",
      });
      if (tool.person) assert.equal(r.sent, 1, `${tool.name} acts for the person, in no tenant`);
      else {
        assert.equal(r.code, "NOT_FOUND", tool.name);
        assert.equal(r.sent, 0, `${tool.name} reached the pipeline`);
      }
    }
  });

  it("refuses every person tool to an API key, though the server was built with it", async () => {
    for (const tool of tools.filter((t) => t.person)) {
      const r = await callAs(tool, {
        identity: key,
        grant: { scopes: new Set(ALL), tenantId: "tnt_0123456789ab" },
        tenantId: "tnt_0123456789ab",
      });
      assert.equal(r.code, "API_KEY_NOT_ALLOWED", tool.name);
      assert.equal(r.sent, 0);
    }
  });

  it("lets the grant's own scope and tenant through to the pipeline (the control)", async () => {
    for (const tool of tools) {
      const r = await callAs(tool, {
        identity: person,
        grant: { scopes: new Set([tool.scope]), tenantId: "tnt_0123456789ab" },
        tenantId: "tnt_0123456789ab",
      });
      assert.equal(r.sent, 1, `${tool.name}: ${JSON.stringify(r.result.content)}`);
    }
  });
});
