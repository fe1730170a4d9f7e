import assert from "node:assert/strict";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { callTool as call, failure, ok, restAs } from "./tool-calls.ts";

/**
 * export_my_data and get_my_export_status on the local stack (privacy-svc gathering from
 * identity-svc, the archive in the exports bucket on moto): each answer is REST's for the same
 * state, the download URL a tool hands out works, and an API key never reaches a person's data.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_prv");
});
afterAll(() => stack.close());

/** The answer without what is new on every read (a fresh presigned URL and its expiry). */
const stable = ({ download_url: _, download_url_expires_at: __, ...rest }: Record<string, unknown>) => rest;

describe("mcp-gateway privacy tools", () => {
  it("starts an export, polls it to ready and downloads it, each answer equal to REST's; refusals equal too", async () => {
    const user = await stack.identity.signUp();
    const rest = restAs(stack);
    const { client } = await signIn(stack, user, "/mcp", "account");

    const started = ok(await call(client, "export_my_data"));
    assert.match(String(started.job_id), /^exp_/);
    assert.ok(["queued", "running", "ready"].includes(String(started.status)), String(started.status));
    const jobId = started.job_id as string;

    let ready: Record<string, unknown> = {};
    await waitFor(
      async () => {
        ready = ok(await call(client, "get_my_export_status", { job_id: jobId }));
        return ready.status === "ready";
      },
      60_000,
      `export ${jobId} ready over MCP`,
      200,
    );
    const viaRest = await rest("GET", `/v1/users/me/export/${jobId}`, user);
    assert.equal(viaRest.status, 200, viaRest.text);
    assert.deepEqual(stable(ready), stable(viaRest.json));
    assert.ok(viaRest.json.download_url && ready.download_url_expires_at);
    // The link the tool handed out downloads the archive (a ZIP) with a plain HTTP client.
    const download = await fetch(recordSecret(String(ready.download_url)));
    assert.equal(download.status, 200);
    assert.deepEqual([...new Uint8Array(await download.arrayBuffer()).slice(0, 2)], [0x50, 0x4b]);

    // Within 24 hours of a finished export both doors refuse another with the same code.
    const again = failure(await call(client, "export_my_data"));
    const againRest = await rest("POST", "/v1/users/me/export", user);
    assert.equal(againRest.status, 429, againRest.text);
    assert.equal(again.code, "EXPORT_RATE_LIMITED");
    assert.equal(again.code, againRest.json.code);
    assert.equal(again.message, againRest.json.detail);

    // Someone else's job and an unknown id are the same NOT_FOUND, over MCP as over REST.
    const other = await stack.identity.signUp();
    const { client: otherClient } = await signIn(stack, other, "/mcp", "account");
    const foreign = failure(await call(otherClient, "get_my_export_status", { job_id: jobId }));
    const foreignRest = await rest("GET", `/v1/users/me/export/${jobId}`, other);
    assert.equal(foreignRest.status, 404);
    assert.equal(foreign.code, foreignRest.json.code);
    const unknown = failure(await call(otherClient, "get_my_export_status", { job_id: "exp_0000000000000000000000" }));
    assert.equal(unknown.code, foreign.code);
    assert.equal(unknown.message, foreign.message);
    // Strict input: a malformed job id and an unknown argument are refused before any call.
    assert.equal((await call(client, "get_my_export_status", { job_id: "../users" })).isError, true);
    assert.equal((await call(client, "export_my_data", { sub: other.sub })).isError, true);
    await Promise.all([client.close(), otherClient.close()]);
  });

  it("needs a person's token with the account scope: not an API key, not a marketplace-only token", async () => {
    const owner = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(owner);
    const key = await restAs(stack)("POST", `/v1/tenants/${tenantId}/api-keys`, owner, { name: "mcp", scope: "write" });
    assert.equal(key.status, 201, key.text);
    const rpc = (token: string, name: string, path = "/mcp") =>
      fetch(new URL(path, stack.resource), {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
      });
    // A key does not see the person tools, and calling one by name does nothing.
    const byKey = await (await rpc(recordSecret(key.json.secret as string), "export_my_data")).json();
    assert.ok(byKey.error || byKey.result?.isError, JSON.stringify(byKey));
    assert.doesNotMatch(JSON.stringify(byKey), /job_id/);
    // A token the person granted only marketplace scopes gets the step-up challenge.
    const { token } = await signIn(stack, owner, `/mcp/tenants/${tenantId}`, "marketplace:read");
    const res = await rpc(token, "export_my_data", `/mcp/tenants/${tenantId}`);
    assert.equal(res.status, 403);
    assert.match(res.headers.get("www-authenticate") ?? "", /error="insufficient_scope", scope="account"/);
    // Neither started an export (and the query sees one once REST starts it).
    const jobs = async () =>
      (
        await stack.privacy.db.orm.em
          .fork()
          .execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${stack.privacy.db.schema}".export_job WHERE sub = ?`, [
            owner.sub,
          ])
      )[0]!.n;
    assert.equal(Number(await jobs()), 0);
    assert.equal((await restAs(stack)("POST", "/v1/users/me/export", owner)).status, 202);
    assert.equal(Number(await jobs()), 1);
  });
});
