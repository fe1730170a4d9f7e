import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn as signInAt } from "./sign-in.ts";

let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_gw");
});
afterAll(() => stack.close());

const signIn = (user: Parameters<typeof signInAt>[1], path?: string, scope?: string) =>
  signInAt(stack, user, path, scope);

const post = (token: string | undefined, body: unknown, path = "/mcp") =>
  fetch(new URL(path, stack.resource), {
    method: "POST",
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(body),
  });

describe("mcp-gateway", () => {
  it("answers a caller without a token 401 with the resource metadata, and serves that metadata", async () => {
    const res = await post(undefined, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal(res.status, 401);
    assert.match(
      res.headers.get("www-authenticate") ?? "",
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="[^"]+"$/,
    );
    const prm = await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", stack.resource))).json();
    assert.equal(prm.resource, stack.resource);
    assert.deepEqual(prm.authorization_servers, [stack.issuer]);
    // RFC 6750 §3 scope (issue 20): the scopes a token needs, the metadata's scopes_supported.
    const scope = /scope="([^"]+)"/.exec(res.headers.get("www-authenticate") ?? "")![1]!;
    assert.deepEqual(scope.split(" "), prm.scopes_supported);
    assert.deepEqual(prm.scopes_supported, ["marketplace:read", "marketplace:write", "account"]);
    assert.equal((await fetch(stack.resource)).status, 405);
  });

  it("does not advertise tools.listChanged: a stateless server never sends list_changed", async () => {
    const user = await stack.identity.signUp();
    const { token } = await signIn(user);
    const res = await post(token, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    const init = (await res.json()) as { result: { protocolVersion: string; capabilities: { tools?: unknown } } };
    assert.equal(init.result.protocolVersion, "2025-11-25");
    assert.deepEqual(init.result.capabilities.tools, { listChanged: false });
  });

  it("refuses invalid arguments as REST does: VALIDATION_FAILED with errors [{path, code, message}]", async () => {
    const user = await stack.identity.signUp();
    const { client } = await signIn(user);
    const bad = await client.callTool({ name: "get_my_export_status", arguments: { job_id: "not-a-job" } });
    assert.equal(bad.isError, true);
    const error = JSON.parse((bad.content as { text: string }[])[0]!.text);
    const rest = await stack.restCaller.call("GET", "/v1/users/me/export/not-a-job", {
      token: user.tokens.access_token,
    });
    assert.equal(rest.status, 400, rest.text);
    assert.equal(error.code, rest.json.code);
    assert.deepEqual(error.errors, rest.json.errors);
    const unknown = await client.callTool({ name: "export_my_data", arguments: { sub: user.sub } });
    const unknownError = JSON.parse((unknown.content as { text: string }[])[0]!.text);
    assert.equal(unknownError.code, "VALIDATION_FAILED");
    assert.deepEqual(
      unknownError.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [["", "unrecognized_keys"]],
    );
    await client.close();
  });

  it("refuses a REST-audience token and garbage with invalid_token", async () => {
    const user = await stack.identity.signUp();
    const rest = user.tokens.access_token;
    for (const token of [rest, "not-a-token"]) {
      const res = await post(token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
    }
  });

  it("lists its tools in a fixed order, matching the reviewed snapshot", async () => {
    const user = await stack.identity.signUp();
    const { client } = await signIn(user);
    const listed = (await client.listTools()).tools;
    const snapshotFile = join(import.meta.dirname, "tools.snapshot.json");
    const current = JSON.stringify(listed, null, 2);
    if (process.env.UPDATE_TOOL_SNAPSHOT) writeFileSync(snapshotFile, `${current}\n`);
    assert.equal(
      current,
      readFileSync(snapshotFile, "utf8").trimEnd(),
      "the tool list changed: review it, then UPDATE_TOOL_SNAPSHOT=1",
    );
    await client.close();
  });

  it("delete_my_account deletes nothing unless confirm says delete, then deletes and every credential stops working", async () => {
    const user = await stack.identity.signUp();
    const { client, token } = await signIn(user);
    for (const confirm of ["yes", "DELETE please", ""]) {
      const r = await client.callTool({ name: "delete_my_account", arguments: { confirm } });
      assert.equal(r.isError, true);
      assert.match(JSON.stringify(r.content), /CONFIRMATION_REQUIRED/);
    }
    const unknownArg = await client.callTool({
      name: "delete_my_account",
      arguments: { confirm: "delete", force: true },
    });
    assert.equal(unknownArg.isError, true);
    const done = await client.callTool({ name: "delete_my_account", arguments: { confirm: " DELETE " } });
    assert.equal(done.isError, undefined, JSON.stringify(done.content));
    assert.deepEqual((done.structuredContent as { deleted: boolean; sub: string }).sub, user.sub);
    const after = await post(token, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    assert.equal(after.status, 401);
  });

  it("refuses a body that is not UTF-8 as a parse error rather than passing U+FFFD on to the services", async () => {
    const user = await stack.identity.signUp();
    const { client, token } = await signIn(user);
    const body = Buffer.concat([
      Buffer.from(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_my_account","arguments":{"confirm":"del',
      ),
      Buffer.from([0xe9]),
      Buffer.from('"}}}'),
    ]);
    const res = await fetch(new URL("/mcp", stack.resource), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(((await res.json()) as { error: { code: number } }).error.code, -32700);
    await client.close();
  });

  it("answers the owner of an active tenant OWNS_ACTIVE_TENANTS, as REST does", async () => {
    const user = await stack.identity.signUp();
    await stack.identity.createTenant(user);
    const { client } = await signIn(user);
    const r = await client.callTool({ name: "delete_my_account", arguments: { confirm: "delete" } });
    assert.equal(r.isError, true);
    assert.match(JSON.stringify(r.content), /OWNS_ACTIVE_TENANTS/);
  });

  it("keeps colliding JSON-RPC ids of two users apart over many concurrent rounds", async () => {
    const [a, b] = [await stack.identity.signUp(), await stack.identity.signUp()];
    const [ta, tb] = [(await signIn(a)).token, (await signIn(b)).token];
    const rounds = 1000;
    const call = async (token: string, sub: string) => {
      const res = await post(token, {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "delete_my_account", arguments: { confirm: "no" } },
      });
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.doesNotMatch(text, new RegExp(sub === a.sub ? b.sub : a.sub));
      return text;
    };
    // 1,000 rounds, 64 in flight at any time (both users' calls interleaved, every one with id 7).
    let next = 0;
    const lane = async () => {
      while (next < rounds) {
        const i = next++;
        await (i % 2 ? call(ta, a.sub) : call(tb, b.sub));
      }
    };
    await Promise.all(Array.from({ length: 64 }, lane));
  });
});
