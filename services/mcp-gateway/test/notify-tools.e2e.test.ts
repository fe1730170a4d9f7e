import assert from "node:assert/strict";
import { startReceiver } from "@flowstate/notify-svc/testing/receiver";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, callTool as call, failure, ok, restAs } from "./tool-calls.ts";

/**
 * The notification tools (issue 25) on the local stack: each answer is REST's for the same state,
 * a replay through a tool reaches the receiver with the original webhook-id, and a member (REST:
 * admins only) is refused as REST refuses.
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
