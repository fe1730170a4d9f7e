import assert from "node:assert/strict";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { type StatelessConsumer, startStatelessConsumer } from "@flowstate/shared/consumer/stateless-consumer";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { createLogger } from "@flowstate/shared/log/logger";
import { type OutboxRelay, startOutboxRelay } from "@flowstate/shared/outbox/relay";
import { createTestBus, type TestBus } from "@flowstate/shared/outbox/test-bus";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { eventPattern } from "../../../deploy/local/definition.ts";
import { mcpRevocationConsumer } from "../src/revocations.ts";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { restAs } from "./tool-calls.ts";

/**
 * Credentials that stop being valid after they were accepted: a token that expires, an account
 * deleted at the REST door, an API key revoked there. The last two reach mcp-gateway only as
 * AccessRevoked events, so they travel as in production: identity-svc's outbox relay publishes to
 * an EventBridge bus (moto), the mcp-gateway rule (its consumer declaration's pattern) carries them
 * to a queue, and mcp-gateway's consumer (as main.ts runs it) drops the pipeline's cached facts.
 */
const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const sqs = aws.data("sqs");
const eventBridge = aws.data("eventbridge");
const logger = createLogger({ service: "mcp-gateway" });

let stack: Awaited<ReturnType<typeof startMcpStack>>;
let queue: TestQueue;
let relay: OutboxRelay;
let bus: TestBus;
beforeAll(async () => {
  stack = await startMcpStack("mcp_cred");
  queue = await createTestQueue(sqs, { prefix: "mcp", visibilityTimeout: 5 });
  bus = await createTestBus(eventBridge, queue.queueArn, eventPattern(mcpRevocationConsumer.events));
  relay = startOutboxRelay({
    orm: stack.identity.db.orm,
    eventBridge,
    busName: bus.busName,
    logger,
    pollIntervalMs: 200,
  });
});
afterAll(async () => {
  await relay?.stop();
  await bus?.delete();
  await queue?.delete();
  await stack?.close();
});

/** mcp-gateway's consumer on the queue, wired as main.ts wires it; started when a test wants events applied. */
const startConsumer = (): StatelessConsumer =>
  startStatelessConsumer({
    sqs,
    queueUrl: queue.queueUrl,
    logger,
    definition: mcpRevocationConsumer,
    context: { invalidate: stack.pipeline.gateway.invalidate },
    onRecovered: () => stack.pipeline.gateway.invalidateAll(),
    waitTimeSeconds: 1,
  });

const post = (token: string, path = "/mcp") =>
  fetch(new URL(path, stack.resource), {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
const assertInvalidToken = (res: Response) => {
  assert.equal(res.status, 401);
  assert.match(
    res.headers.get("www-authenticate") ?? "",
    /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="marketplace:read marketplace:write account", error="invalid_token"$/,
  );
};

describe("mcp-gateway: credentials that stop being valid", () => {
  it("refuses an expired token with 401 invalid_token, and the official client then refreshes and goes on", async () => {
    const user = await stack.identity.signUp();
    // identity-svc's clock 14m30s behind: the token it issues now expires 30 s from now (room for
    // the sign-in on a loaded machine).
    stack.skew(-(900_000 - 30_000));
    let signedIn: Awaited<ReturnType<typeof signIn>>;
    try {
      signedIn = await signIn(stack, user);
    } finally {
      stack.skew(0);
    }
    const { client, provider, token } = signedIn;
    const expiresAt = (decodeJwt(token).exp as number) * 1000;
    assert.ok(expiresAt - Date.now() < 30_000, "issued with the moved clock");
    assert.equal((await post(token)).status, 200, "valid until it expires");
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 250));
    assertInvalidToken(await post(token));
    // What a client does with that answer: the SDK refreshes the token and retries.
    assert.ok((await client.listTools()).tools.length > 0);
    assert.notEqual(provider.saved?.access_token, token);
    await client.close();
  });

  it("refuses a deleted account's token once AccountDeleted's AccessRevoked arrives through EventBridge and SQS", async () => {
    const user = await stack.identity.signUp();
    const { token } = await signIn(stack, user);
    assert.equal((await post(token)).status, 200);
    const deleted = await restAs(stack)("DELETE", "/v1/users/me", user);
    assert.equal(deleted.status, 200, deleted.text);
    // The account was deleted at the REST door: mcp-gateway's pipeline still holds the session as
    // live in its cache (for up to ACCESS_CACHE_TTL_MS). Only the event can refuse it sooner.
    assert.equal((await post(token)).status, 200, "answered from the pipeline's cache before the event");
    const consumer = startConsumer();
    try {
      await waitFor(async () => (await post(token)).status === 401, 30_000, "the deleted account's token refused", 250);
      assertInvalidToken(await post(token));
      assert.ok(consumer.stats().applied >= 1, JSON.stringify(consumer.stats()));
    } finally {
      await consumer.stop();
    }
  });

  it("refuses a revoked API key once AccessRevoked arrives through EventBridge and SQS", async () => {
    const owner = await stack.identity.signUp();
    const { id: tenantId } = await stack.identity.createTenant(owner);
    const rest = restAs(stack);
    const key = await rest("POST", `/v1/tenants/${tenantId}/api-keys`, owner, { name: "mcp", scope: "read" });
    assert.equal(key.status, 201, key.text);
    const secret = recordSecret(key.json.secret as string);
    assert.equal((await post(secret)).status, 200);
    assert.equal((await rest("DELETE", `/v1/tenants/${tenantId}/api-keys/${key.json.key_id}`, owner)).status, 204);
    assert.equal((await post(secret)).status, 200, "answered from the pipeline's cache before the event");
    const consumer = startConsumer();
    try {
      await waitFor(async () => (await post(secret)).status === 401, 30_000, "the revoked key refused", 250);
      assertInvalidToken(await post(secret));
    } finally {
      await consumer.stop();
    }
  });
});
