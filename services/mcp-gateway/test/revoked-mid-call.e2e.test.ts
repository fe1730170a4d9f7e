import assert from "node:assert/strict";
import type { Gateway } from "@flowstate/edge-gateway/pipeline";
import { createLogger } from "@flowstate/shared/log/logger";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createMcpApp } from "../src/app.ts";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { restAs } from "./tool-calls.ts";

/**
 * A credential revoked after the door authenticated the request but before the tool's route ran:
 * the pipeline answers the route 401, and the MCP answer must be HTTP 401 with the invalid_token
 * challenge (a client goes back to authorization only on a 401), never a 200 with an isError
 * result (issue 20). The race is made deterministic with `revokingDoor`.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_revmid");
});
afterAll(() => stack.close());

const rpc = (name: string, args: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const headers = (token: string) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
});
const CHALLENGE =
  /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"(, scope="[^"]+")?, error="invalid_token"$/;

/**
 * A door on the stack's own pipeline whose first pipeline call is preceded by the revocation of
 * the grant (RFC 7009 at the REST door) and the drop of the pipeline's cached session (what the
 * AccessRevoked event does): revoked after the door's authenticate, before the call.
 */
function revokingDoor(provider: Awaited<ReturnType<typeof signIn>>["provider"]) {
  const real = stack.pipeline.gateway;
  let revoked = false;
  // The first of the door's calls to the pipeline (a route, or a tenant URL's membership check) revokes first.
  const revokeOnce = async () => {
    if (revoked) return;
    revoked = true;
    const res = await fetch(new URL("/oauth/revoke", stack.issuer), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: provider.saved!.refresh_token!,
        token_type_hint: "refresh_token",
        client_id: provider.info!.client_id,
      }).toString(),
    });
    assert.equal(res.status, 200, await res.text());
    real.invalidateAll();
  };
  const revokeThenCall: Gateway["call"] = async (request) => {
    await revokeOnce();
    return real.call(request);
  };
  const revokeThenMemberRole: Gateway["memberRole"] = async (tenantId, sub) => {
    await revokeOnce();
    return real.memberRole(tenantId, sub);
  };
  const app = createMcpApp({
    pipeline: { gateway: { ...real, call: revokeThenCall, memberRole: revokeThenMemberRole } },
    resource: stack.resource,
    issuer: stack.issuer,
    allowedOrigins: [],
    logger: createLogger({ service: "mcp-test" }),
  });
  return { app, revoked: () => revoked };
}

describe("mcp-gateway: a credential revoked during the call", () => {
  it("answers HTTP 401 invalid_token when the pipeline refuses the tool's route as revoked", async () => {
    const user = await stack.identity.signUp();
    const signedIn = await signIn(stack, user);
    const door = revokingDoor(signedIn.provider);
    const res = await door.app.request("/mcp", {
      method: "POST",
      headers: headers(signedIn.token),
      body: rpc("get_my_export_status", { job_id: "exp_0000000000000000000000" }),
    });
    const text = await res.text();
    assert.ok(door.revoked(), "the door authenticated the request, then the grant was revoked");
    assert.equal(res.status, 401, text);
    assert.match(res.headers.get("www-authenticate") ?? "", CHALLENGE);
    assert.doesNotMatch(text, /isError/);
    // The next request is refused at the door itself.
    const next = await door.app.request("/mcp", {
      method: "POST",
      headers: headers(signedIn.token),
      body: rpc("export_my_data"),
    });
    assert.equal(next.status, 401);
  });

  it("sends the official client back to authorization (its refresh refused, it asks for a new sign-in)", async () => {
    const user = await stack.identity.signUp();
    const signedIn = await signIn(stack, user);
    const door = revokingDoor(signedIn.provider);
    const mcpOrigin = new URL(stack.resource).origin;
    // The client's requests to the MCP origin go to this door; the authorization server's are real.
    const routed: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return url.origin === mcpOrigin ? await door.app.request(url.pathname + url.search, init) : fetch(input, init);
    };
    const client = new Client({ name: "revoked-mid-call", version: "0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stack.resource), { authProvider: signedIn.provider, fetch: routed }),
    );
    const before = signedIn.provider.authorizationUrl;
    await assert.rejects(
      client.callTool({ name: "get_my_export_status", arguments: { job_id: "exp_0000000000000000000000" } }),
      UnauthorizedError,
    );
    assert.ok(door.revoked());
    assert.notEqual(signedIn.provider.authorizationUrl, before, "a new authorization was started");
  });

  // The tenant URL's membership check reads the door's cached membership (a revocation does not
  // make a person a non-member, so it cannot turn into a missing tenant); the tool's route then
  // meets the revoked credential.
  it("answers HTTP 401, not a missing tenant, when revoked before the tenant path's membership check", async () => {
    const user = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(user);
    const signedIn = await signIn(stack, user, `/mcp/tenants/${tenantId}`, "marketplace:read", tenantId);
    const door = revokingDoor(signedIn.provider);
    const res = await door.app.request(`/mcp/tenants/${tenantId}`, {
      method: "POST",
      headers: headers(signedIn.token),
      body: rpc("get_marketplace_connector_status"),
    });
    assert.ok(door.revoked());
    assert.equal(res.status, 401, await res.text());
    assert.match(res.headers.get("www-authenticate") ?? "", CHALLENGE);
  });

  it("answers HTTP 401 when the owning service refuses a deleted account the door's cache still holds", async () => {
    const user = await stack.identity.signUp();
    const { token } = await signIn(stack, user);
    const post = (body: string) => fetch(stack.resource, { method: "POST", headers: headers(token), body });
    // Cached as live at the MCP door (no AccessRevoked consumer in this stack).
    assert.equal((await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }))).status, 200);
    assert.equal((await restAs(stack)("DELETE", "/v1/users/me", user)).status, 200);
    // The route's call is refused as revoked (measured: SESSION_REVOKED; identity-svc refuses a
    // deleted account's call itself too), or, once revocation reaches the door sooner, the door
    // refuses it: either way the answer is the 401 challenge, not a result.
    const res = await post(rpc("delete_my_account", { confirm: "delete" }));
    const text = await res.text();
    assert.equal(res.status, 401, text);
    assert.match(res.headers.get("www-authenticate") ?? "", CHALLENGE);
  });
});
