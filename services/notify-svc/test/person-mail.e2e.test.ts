import assert from "node:assert/strict";
import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import type { Harness, TestUser } from "@flowstate/identity-svc/testing/harness";
import { sentMail } from "@flowstate/privacy-svc/testing/aws-fixtures";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { afterAll, beforeAll, describe, it } from "vitest";
import { notifyConsumer } from "../src/consumers/consumer.ts";
import { eventOfEachKind } from "../src/testing/events.ts";
import type { NotifyHarness } from "../src/testing/harness.ts";
import { startMailStack } from "./mail-stack.ts";

/**
 * Per-person e-mail (issue 25): an offer change's result goes to the person who asked for it
 * (the event's actor), through SES v2, when their `offer_change_results` preference is on; the
 * address and the preference come from a real identity-svc at sending. Events through a moto SQS
 * queue into the consumer, each sent twice.
 */
const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const mailFrom = "notify-person@flowstate.test";
let identity: Harness;
let h: NotifyHarness;
let q: TestQueue;
let consumer: Consumer;
let stack: Awaited<ReturnType<typeof startMailStack>>;
beforeAll(async () => {
  stack = await startMailStack({ prefix: "person", mailFrom });
  ({ identity, h } = stack);
  q = await createTestQueue(aws.data("sqs"), { prefix: "notify-person", visibilityTimeout: 2 });
  consumer = createConsumer({
    sqs: aws.data("sqs"),
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
  await stack.close();
});

/** The event of `kind` as `user` caused it (the envelope's actor). */
const askedBy = (user: TestUser, tenantId: string, kind: "offer.released" | "offer.change_failed"): DomainEvent => ({
  ...eventOfEachKind(tenantId)[kind]!,
  actor: { kind: "user", sub: user.sub },
});
const outcomes = () =>
  h.db.orm.em
    .fork()
    .execute<{ sub: string; outcome: string | null }[]>(`SELECT sub, outcome FROM "${h.db.schema}".person_mail`);

describe("per-person e-mail", () => {
  it("tells whoever asked for an offer change its result, once, unless their preference is off", async () => {
    const [wants, declines] = [await identity.signUp(), await identity.signUp()];
    const { id: tenantId } = await identity.createTenant(wants);
    const off = await identity.call("PUT", "/v1/users/me/notification-preferences", {
      as: declines.identity,
      body: { offer_change_results: false },
    });
    assert.equal(off.status, 200, await off.text());
    const released = askedBy(wants, tenantId, "offer.released");
    const failed = askedBy(declines, tenantId, "offer.change_failed");
    const bodies = [released, failed].map((e) => JSON.stringify(e));
    await sendBodies(aws.data("sqs"), q.queueUrl, [...bodies, ...bodies]);

    await waitFor(
      async () => (await outcomes()).filter((o) => [wants.sub, declines.sub].includes(o.sub) && o.outcome).length === 2,
      15_000,
      "both mails settled",
      200,
    );
    const settled = Object.fromEntries((await outcomes()).map((o) => [o.sub, o.outcome]));
    assert.equal(settled[wants.sub], "sent");
    assert.equal(settled[declines.sub], "preference_off");
    const mails = (await sentMail(stack.mailEndpoint)).filter((m) => m.source === mailFrom);
    const toWants = mails.filter((m) => m.destinations.includes(wants.email));
    assert.equal(toWants.length, 1, "one mail, although the event came twice");
    assert.match(toWants[0]!.subject, /released/);
    assert.match(toWants[0]!.body, /offer_id: offer-rel1/);
    assert.equal(mails.filter((m) => m.destinations.includes(declines.email)).length, 0);
  });
});
