import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { notifyConsumer } from "../src/consumers/consumer.ts";
import { eventOfEachKind } from "../src/testing/events.ts";
import { type NotifyHarness, startNotifySvc } from "../src/testing/harness.ts";
import { type Receiver, startReceiver } from "../src/testing/receiver.ts";

/**
 * Issue 25's acceptance, end to end on real parts: domain events through a moto SQS queue into the
 * consumer, the delivery worker on PostgreSQL, and a receiver written here that verifies every
 * request with the `standardwebhooks` package. Production retries for 24 h with a 5 s to 1 h
 * backoff; here the backoff is 200 ms to 1 s and the outage 2 s, so the suite runs in seconds.
 */
const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
let h: NotifyHarness;
let q: TestQueue;
let consumer: Consumer;
beforeAll(async () => {
  h = await startNotifySvc({ prefix: "delivery" });
  q = await createTestQueue(sqs, { prefix: "notify", visibilityTimeout: 2 });
  consumer = createConsumer({
    sqs,
    queueUrl: q.queueUrl,
    orm: h.db.orm,
    logger: h.deps.logger,
    definition: notifyConsumer,
    deps: h.deps,
    waitTimeSeconds: 1,
  }).start();
});
afterAll(async () => {
  await consumer.stop();
  await q.delete();
  await h.close();
});

const admin: VerifiedIdentity = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" };
const tenant = () => `tnt_${randomBytes(8).toString("hex")}`;
const json = async (res: Response, status: number) => {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return text ? JSON.parse(text) : null;
};
const register = async (t: string, r: Receiver, extra: object = {}) => {
  const created = await json(
    await h.call("POST", `/v1/tenants/${t}/notifications/endpoints`, { as: admin, body: { url: r.url, ...extra } }),
    201,
  );
  r.secrets.push(recordSecret(created.secret));
  return created as { id: string; secret: string };
};
const deliveries = async (t: string, endpointId: string) =>
  (
    await json(
      await h.call("GET", `/v1/tenants/${t}/notifications/endpoints/${endpointId}/deliveries`, { as: admin }),
      200,
    )
  ).items as { id: string; message_id: string; type: string; status: string; attempts: number }[];

describe("notify-svc delivery", () => {
  it("delivers each event kind exactly once, signed, across a receiver outage, each event consumed twice", async () => {
    const t = tenant();
    const r = await startReceiver();
    const endpoint = await register(t, r);
    const events = eventOfEachKind(t);
    r.down = true;
    const bodies = Object.values(events).map((e) => JSON.stringify(e));
    await sendBodies(sqs, q.queueUrl, [...bodies, ...bodies]);
    // Down until every message was tried at least twice (the first attempt and a retry).
    await waitFor(
      async () => {
        const log = await deliveries(t, endpoint.id);
        return log.length === bodies.length && log.every((d) => d.attempts >= 2);
      },
      15_000,
      "every delivery retried during the outage",
    );
    r.down = false;
    await waitFor(
      () => r.accepted().length >= bodies.length,
      15_000,
      () => `${r.accepted().length} accepted`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // nothing more may arrive

    const accepted = r.accepted();
    assert.equal(accepted.length, bodies.length, "one accepted request per event");
    assert.equal(new Set(accepted.map((a) => a.id)).size, bodies.length, "each webhook-id accepted once");
    assert.ok(
      r.received.every((x) => x.verified),
      "every request verified with standardwebhooks",
    );
    const kinds = accepted.map((a) => JSON.parse(a.body).type).sort();
    assert.deepEqual(kinds, Object.keys(events).sort());
    for (const a of accepted) {
      assert.doesNotMatch(a.body, /@/, "a payload carries no e-mail address");
      const body = JSON.parse(a.body);
      assert.equal(body.data.tenant_id, t);
      // A retry keeps the message's webhook-id: the outage's attempts used the ids accepted later.
      assert.ok(r.received.filter((x) => x.id === a.id).length >= 2);
    }
    const log = await deliveries(t, endpoint.id);
    assert.ok(log.every((d) => d.status === "succeeded"));
    await r.close();
  });

  it("replays a delivery with the same webhook-id and body, as a new delivery in the log", async () => {
    const t = tenant();
    const r = await startReceiver();
    const endpoint = await register(t, r);
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(eventOfEachKind(t)["offer.released"])]);
    await waitFor(() => r.accepted().length === 1, 10_000, "first delivery");
    const [first] = await deliveries(t, endpoint.id);
    const replay = await json(
      await h.call("POST", `/v1/tenants/${t}/notifications/endpoints/${endpoint.id}/deliveries/${first!.id}/replay`, {
        as: admin,
      }),
      202,
    );
    assert.equal(replay.replay_of, first!.id);
    assert.equal(replay.message_id, first!.message_id);
    await waitFor(() => r.accepted().length === 2, 10_000, "replayed delivery");
    const [a, b] = r.accepted();
    assert.equal(b!.id, a!.id, "the replay carries the original webhook-id");
    assert.equal(b!.body, a!.body);
    assert.equal(a!.id, first!.message_id);
    await r.close();
  });

  it("signs with the previous secret too after a rotation, so a receiver holding either verifies", async () => {
    const t = tenant();
    const r = await startReceiver();
    const endpoint = await register(t, r);
    const rotated = await json(
      await h.call("POST", `/v1/tenants/${t}/notifications/endpoints/${endpoint.id}/rotate-secret`, { as: admin }),
      200,
    );
    recordSecret(rotated.secret);
    assert.notEqual(rotated.secret, endpoint.secret);
    assert.ok(rotated.previous_valid_until);
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(eventOfEachKind(t)["agreement.created"])]);
    await waitFor(() => r.accepted().length === 1, 10_000, "delivery after rotation");
    const [got] = r.accepted();
    assert.equal(got!.signature.split(" ").length, 2, "two signatures during the overlap");
    r.secrets = [rotated.secret];
    const onlyNew = await startReceiver();
    onlyNew.secrets = [rotated.secret];
    // Each secret alone verifies the same request.
    for (const secrets of [[endpoint.secret], [rotated.secret]]) {
      const { Webhook } = await import("standardwebhooks");
      for (const s of secrets)
        new Webhook(s).verify(got!.body, {
          "webhook-id": got!.id,
          "webhook-timestamp": got!.timestamp,
          "webhook-signature": got!.signature,
        });
    }
    await onlyNew.close();
    await r.close();
  });

  it("posts a Slack endpoint one text line of ids and states, unsigned, and shows its URL by origin only", async () => {
    const t = tenant();
    const r = await startReceiver();
    const created = await json(
      await h.call("POST", `/v1/tenants/${t}/notifications/endpoints`, {
        as: admin,
        body: { kind: "slack", url: r.url, types: ["offer.change_failed"] },
      }),
      201,
    );
    assert.equal(created.secret, null);
    assert.equal(created.url, `${new URL(r.url).origin}/…`);
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(eventOfEachKind(t)["offer.change_failed"])]);
    await waitFor(() => r.received.length === 1, 10_000, "the Slack message");
    const [got] = r.received;
    assert.equal(got!.signature, "", "a Slack message carries no webhook signature");
    const { text } = JSON.parse(got!.body) as { text: string };
    assert.match(text, /offer\.change_failed/);
    assert.match(text, /offer_id: `offer-upd1`/);
    assert.match(text, /failure_code: `CLIENT_ERROR`/);
    assert.doesNotMatch(text, /@/);
    await r.close();
  });

  it("sends only the kinds an endpoint takes, and nothing for another tenant's events", async () => {
    const t = tenant();
    const r = await startReceiver();
    await register(t, r, { types: ["offer.released"] });
    const mine = eventOfEachKind(t);
    const theirs = eventOfEachKind(tenant());
    await sendBodies(
      sqs,
      q.queueUrl,
      [mine["offer.expired"], mine["offer.released"], theirs["offer.released"]].map((e) => JSON.stringify(e)),
    );
    await waitFor(() => r.accepted().length === 1, 10_000, "the released offer");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(r.received.length, 1);
    assert.equal(JSON.parse(r.received[0]!.body).data.offer_id, "offer-rel1");
    await r.close();
  });
});
