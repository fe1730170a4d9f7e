import assert from "node:assert/strict";
import { startReceiver } from "@flowstate/notify-svc/testing/receiver";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, callTool as call, failure, ok, restAs } from "./tool-calls.ts";

/**
 * The notification tools (issue 25) on the local stack: each answer is REST's for the same state,
 * a replay through a tool reaches the receiver with the original webhook-id, a rotated secret is
 * the one the receiver then verifies with, and a member (REST: admins only) is refused as REST refuses.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_ntf");
});
afterAll(() => stack.close());

describe("mcp-gateway notification tools", () => {
  it("creates and lists endpoints, lists deliveries and replays one, each answer equal to REST's", async () => {
    const owner = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(owner);
    const rest = restAs(stack);
    const { client } = await signIn(stack, owner, `/mcp/tenants/${tenantId}`, ALL_SCOPES, tenantId);
    const receiver = await startReceiver();

    const created = ok(
      await call(client, "create_notification_endpoint", { url: receiver.url, types: ["offer.released"] }),
    );
    receiver.secrets.push(recordSecret(String(created.secret)));
    assert.match(String(created.id), /^whe_/);
    const endpointId = created.id as string;
    const listed = ok(await call(client, "list_notification_endpoints"));
    const listedRest = await rest("GET", `/v1/tenants/${tenantId}/notifications/endpoints`, owner);
    assert.deepEqual(listed, listedRest.json);

    const deliveryId = await stack.notify.seedDelivery(tenantId, endpointId);
    const log = ok(await call(client, "list_notification_deliveries", { endpoint_id: endpointId, limit: 5 }));
    const logRest = await rest(
      "GET",
      `/v1/tenants/${tenantId}/notifications/endpoints/${endpointId}/deliveries?limit=5`,
      owner,
    );
    assert.deepEqual(log, logRest.json);
    const [seeded] = log.items as { id: string; message_id: string }[];
    assert.equal(seeded!.id, deliveryId);

    const replay = ok(
      await call(client, "replay_notification_delivery", { endpoint_id: endpointId, delivery_id: deliveryId }),
    );
    assert.equal(replay.replay_of, deliveryId);
    await waitFor(() => receiver.accepted().length === 1, 10_000, "the replayed delivery");
    assert.equal(receiver.accepted()[0]!.id, seeded!.message_id, "the replay carries the message's webhook-id");
    await receiver.close();
  });

  it("enables a disabled endpoint, rotates its secret and deletes it, each as REST does", async () => {
    const owner = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(owner);
    const rest = restAs(stack);
    const endpoints = `/v1/tenants/${tenantId}/notifications/endpoints`;
    const { client } = await signIn(stack, owner, `/mcp/tenants/${tenantId}`, ALL_SCOPES, tenantId);
    const receiver = await startReceiver();
    const created = ok(await call(client, "create_notification_endpoint", { url: receiver.url }));
    const endpointId = created.id as string;
    const first = recordSecret(String(created.secret));

    // Disabled as the worker disables a failing endpoint (notify-svc's disable.e2e covers how it gets there).
    await stack.notify.db.orm.em
      .fork()
      .execute(
        `UPDATE ${qualifiedTable(stack.notify.db.schema, "endpoint")} SET status = 'disabled', disabled_at = now() WHERE id = ?`,
        [endpointId],
      );
    const enabled = ok(await call(client, "enable_notification_endpoint", { endpoint_id: endpointId }));
    assert.equal(enabled.status, "enabled");
    assert.equal(enabled.disabled_at, null);
    const listedRest = await rest("GET", endpoints, owner);
    assert.deepEqual([enabled], listedRest.json.items, "the enabled endpoint as REST lists it");

    // The rotated secret is a credential shown once: recorded for the log scan as the REST tests record theirs.
    const rotated = ok(await call(client, "rotate_notification_endpoint_secret", { endpoint_id: endpointId }));
    const second = recordSecret(String(rotated.secret));
    assert.match(second, /^whsec_/);
    assert.notEqual(second, first);
    assert.ok(Date.parse(String(rotated.previous_valid_until)) > Date.now(), "the previous secret still signs");
    // A receiver that knows only the new secret verifies what the enabled endpoint is sent now.
    receiver.secrets.push(second);
    const deliveryId = await stack.notify.seedDelivery(tenantId, endpointId);
    ok(await call(client, "replay_notification_delivery", { endpoint_id: endpointId, delivery_id: deliveryId }));
    await waitFor(() => receiver.received.length === 1, 10_000, "the replay after the rotation");
    assert.equal(receiver.received[0]!.verified, true, "signed with the rotated secret");

    assert.deepEqual(ok(await call(client, "delete_notification_endpoint", { endpoint_id: endpointId })), {});
    assert.deepEqual((await rest("GET", endpoints, owner)).json.items, []);
    // Gone for every later call, tool or REST, with REST's refusal.
    const again = failure(await call(client, "delete_notification_endpoint", { endpoint_id: endpointId }));
    const againRest = await rest("DELETE", `${endpoints}/${endpointId}`, owner);
    assert.equal(again.code, "NOT_FOUND");
    assert.equal(againRest.json.code, again.code);
    const rotateGone = failure(await call(client, "rotate_notification_endpoint_secret", { endpoint_id: endpointId }));
    assert.equal(rotateGone.code, "NOT_FOUND");
    await receiver.close();
  });

  it("refuses a member as REST does (admins manage endpoints), and a private address as REST does", async () => {
    const owner = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(owner);
    const member = await stack.identity.signUp();
    await stack.identity.addMember(owner, tenantId, member, "member");
    const { client } = await signIn(stack, member, `/mcp/tenants/${tenantId}`, ALL_SCOPES, tenantId);
    const refused = failure(await call(client, "list_notification_endpoints"));
    const refusedRest = await restAs(stack)("GET", `/v1/tenants/${tenantId}/notifications/endpoints`, member);
    assert.equal(refused.code, refusedRest.json.code);
    assert.equal(refused.code, "INSUFFICIENT_ROLE");

    const admin = await signIn(stack, owner, `/mcp/tenants/${tenantId}`, ALL_SCOPES, tenantId);
    const privateUrl = failure(
      await call(admin.client, "create_notification_endpoint", { url: "http://10.0.0.8/hook" }),
    );
    assert.equal(privateUrl.code, "WEBHOOK_URL_REFUSED");
  });
});
