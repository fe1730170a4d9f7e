import assert from "node:assert/strict";
import { type SellerAccountOptions, sellerAccount } from "@flowstate/connector-svc/testing/seller-account";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { startMcpStack } from "./mcp-stack.ts";

type Stack = Awaited<ReturnType<typeof startMcpStack>>;

/** Every scope a tenant member can grant an MCP client. */
export const ALL_SCOPES = "marketplace:read marketplace:write account";

/** REST through the edge gateway with the user's REST token, as the web app calls it. */
export const restAs =
  (stack: Stack) => (method: string, path: string, user: TestUser, body?: unknown, headers?: Record<string, string>) =>
    stack.restCaller.call(method, path, {
      token: user.tokens.access_token,
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
    });

/** A tenant with the marketplace flag, its owner, and a sandbox seller account whose role trusts `trusted`. */
export async function sellerTenant(stack: Stack, options: SellerAccountOptions = {}) {
  const owner = await stack.identity.signUp();
  const { id: tenantId } = await stack.identity.createTenant(owner);
  const flag = await restAs(stack)("PUT", `/v1/tenants/${tenantId}/features`, owner, { marketplace_offers: true });
  assert.equal(flag.status, 200, flag.text);
  const seller = await sellerAccount({ call: stack.restCaller.call, sandbox: stack.sandbox }, options, {
    tenantId,
    token: owner.tokens.access_token,
  });
  return { owner, tenantId, seller, base: `/v1/tenants/${tenantId}/integrations/marketplace` };
}

export const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args });
type Result = Awaited<ReturnType<typeof callTool>>;

/** A success: its structuredContent, after checking the text block is the same JSON. */
export const ok = (result: Result) => {
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  const text = (result.content as { text: string }[])[0]!.text;
  assert.deepEqual(JSON.parse(text), result.structuredContent, "the text is the same JSON");
  return result.structuredContent as Record<string, unknown>;
};

/** An isError result's JSON (code, message, safe extensions). */
export const failure = (result: Result) => {
  assert.equal(result.isError, true, JSON.stringify(result.content));
  return JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, string>;
};
