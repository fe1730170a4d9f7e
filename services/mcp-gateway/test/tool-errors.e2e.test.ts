import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, callTool as call, failure, restAs } from "./tool-calls.ts";

/**
 * A tool error carries what REST's problem carries (issue 20: delete_my_account for an owner named
 * no tenant, so the model could not say which tenants block the deletion): the code, the detail as
 * `message`, field `errors`, and every extension (`tenant_ids`, `feature`, `required_role`, …);
 * not `type`, `title` and `status`, which are HTTP's framing of the same code. The request id is
 * each call's own.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_err");
});
afterAll(() => stack.close());

/** The tool error has every member of REST's problem, with the same values. */
function assertSameFields(tool: Record<string, unknown>, problem: Record<string, unknown>) {
  const { type: _t, title: _ti, status: _s, detail, request_id: _r, ...members } = problem;
  assert.equal(tool.message, detail);
  for (const [key, value] of Object.entries(members)) assert.deepEqual(tool[key], value, key);
  assert.match(String(tool.request_id), /^req_/);
}

describe("mcp-gateway tool errors", () => {
  it("delete_my_account for an owner lists the tenants REST's 409 OWNS_ACTIVE_TENANTS lists", async () => {
    const user = await stack.identity.signUp();
    const tenants = [await stack.identity.createTenant(user), await stack.identity.createTenant(user)];
    const { client } = await signIn(stack, user);
    const refused = failure(await call(client, "delete_my_account", { confirm: "delete" }));
    const rest = await restAs(stack)("DELETE", "/v1/users/me", user);
    assert.equal(rest.status, 409, rest.text);
    assert.equal(refused.code, "OWNS_ACTIVE_TENANTS");
    assert.deepEqual([...(refused.tenant_ids as unknown as string[])].sort(), tenants.map((t) => t.id).sort());
    assertSameFields(refused, rest.json);
    await client.close();
  });

  it("carries the gateway's own extensions: the feature a tenant lacks, the role a member lacks", async () => {
    const owner = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(owner);
    const rest = restAs(stack);
    const base = `/v1/tenants/${tenantId}/integrations/marketplace`;
    const { client } = await signIn(stack, owner, `/mcp/tenants/${tenantId}`, ALL_SCOPES, tenantId);
    const noFlag = failure(await call(client, "get_marketplace_connector_status"));
    const noFlagRest = await rest("GET", base, owner);
    assert.equal(noFlagRest.status, 403, noFlagRest.text);
    assert.equal(noFlag.code, "FEATURE_DISABLED");
    assertSameFields(noFlag, noFlagRest.json);
    await client.close();

    assert.equal(
      (await rest("PUT", `/v1/tenants/${tenantId}/features`, owner, { marketplace_offers: true })).status,
      200,
    );
    const member = await stack.identity.signUp();
    await stack.identity.addMember(owner, tenantId, member, "member");
    const { client: asMember } = await signIn(stack, member, `/mcp/tenants/${tenantId}`, ALL_SCOPES, tenantId);
    const role = failure(await call(asMember, "disconnect_marketplace_connector"));
    const roleRest = await rest("DELETE", base, member);
    assert.equal(roleRest.status, 403, roleRest.text);
    assert.equal(role.code, "INSUFFICIENT_ROLE");
    assertSameFields(role, roleRest.json);
    await asMember.close();
  });
});
