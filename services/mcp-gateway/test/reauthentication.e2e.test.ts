import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";

/**
 * decisions.md, Consent: the MCP tool delete_my_account follows REST's rule, a sign-in at most 15
 * minutes old. An MCP client cannot send a password, so the answer says to authorize again. The
 * sign-in behind the token family (its grant's auth_time) is aged in the database: the token
 * itself stays valid at the gateway.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_reauth");
});
afterAll(() => stack.close());

describe("delete_my_account over MCP", () => {
  it("is refused with REAUTHENTICATION_REQUIRED when the authorization's sign-in is older than 15 minutes", async () => {
    const user = await stack.identity.signUp();
    const { client, token } = await signIn(stack, user);
    const sid = decodeJwt(token).sid as string;
    const { deps } = stack.identity;
    await deps.orm.em
      .fork()
      .execute(`UPDATE "${deps.schema}".oauth_grant SET auth_time = now() - interval '16 minutes' WHERE sid = ?`, [
        sid,
      ]);
    const r = await client.callTool({ name: "delete_my_account", arguments: { confirm: "delete" } });
    assert.equal(r.isError, true);
    assert.match(JSON.stringify(r.content), /REAUTHENTICATION_REQUIRED/);
    assert.match(JSON.stringify(r.content), /authorize the client again/);
    assert.equal((await stack.identity.call("GET", "/v1/users/me", { as: user.identity })).status, 200);
    await client.close();
  });
});
