import assert from "node:assert/strict";
import type { Harness } from "@flowstate/identity-svc/testing/harness";
import { sentMail } from "@flowstate/privacy-svc/testing/aws-fixtures";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { offerSucceeded } from "../src/messages/message-of.ts";
import { eventOfEachKind } from "../src/testing/events.ts";
import type { NotifyHarness } from "../src/testing/harness.ts";
import { startReceiver } from "../src/testing/receiver.ts";
import { enqueueMessage } from "../src/verbs/enqueue-message.ts";
import { startMailStack } from "./mail-stack.ts";

/**
 * An endpoint that fails every attempt for the whole retry window is disabled (production: 24 h
 * and at least 10 attempts; here 1.5 s and 3), its pending deliveries closed, the tenant's owner
 * and admins e-mailed through SES (addresses from a real identity-svc), and enabling it again
 * sends new messages. Enqueued as the consumer would, without the queue (delivery.e2e.test.ts has that path).
 */
let identity: Harness;
let h: NotifyHarness;
let stack: Awaited<ReturnType<typeof startMailStack>>;
const mailFrom = "notify-disable@flowstate.test";
beforeAll(async () => {
  stack = await startMailStack({
    prefix: "disable",
    mailFrom,
    delivery: { retryWindowMs: 1_500, disableAfterFailures: 3, backoffBaseMs: 100, backoffMaxMs: 200 },
  });
  ({ identity, h } = stack);
});
afterAll(() => stack.close());

describe("a failing endpoint", () => {
  it("is disabled after failing for the retry window, its tenant's admins are e-mailed, and it takes messages again once enabled", async () => {
    const owner = await identity.signUp();
    const { id: t } = await identity.createTenant(owner);
    const [other, member] = [await identity.signUp(), await identity.signUp()];
    await identity.addMember(owner, t, other, "admin");
    // Writes re-check the caller at the real identity-svc: the owner's live session.
    const admin = owner.identity;
    await identity.addMember(owner, t, member, "member");
    const r = await startReceiver();
    r.down = true;
    const res = await h.call("POST", `/v1/tenants/${t}/notifications/endpoints`, { as: admin, body: { url: r.url } });
    const endpoint = JSON.parse(await res.text());
    assert.equal(res.status, 201);
    r.secrets.push(recordSecret(endpoint.secret));
    const enqueue = (kind: "offer.released" | "offer.expired") => {
      const e = eventOfEachKind(t)[kind]!;
      return h.db.orm.em
        .fork()
        .transactional((em) => enqueueMessage(em as never, h.deps, e, offerSucceeded(e as never)));
    };
    await enqueue("offer.released");
    const path = `/v1/tenants/${t}/notifications/endpoints`;
    await waitFor(
      async () => {
        const list = JSON.parse(await (await h.call("GET", path, { as: admin })).text());
        return list.items[0].status === "disabled";
      },
      10_000,
      "endpoint disabled",
    );
    const log = JSON.parse(await (await h.call("GET", `${path}/${endpoint.id}/deliveries`, { as: admin })).text());
    assert.equal(log.items[0].status, "failed");
    assert.ok(log.items[0].attempts >= 3);

    // The owner and the other admin are told, in one e-mail from SES (moto's store); the member is not.
    const mail = await waitFor(
      async () => (await sentMail(stack.mailEndpoint)).find((m) => m.body.includes(endpoint.id)),
      15_000,
      "the disabled-endpoint e-mail",
      500,
    );
    assert.equal(mail.source, mailFrom);
    assert.deepEqual([...mail.destinations].sort(), [owner.email, other.email].sort());
    assert.match(mail.body, /enable/);

    r.down = false;
    const enabled = await h.call("POST", `${path}/${endpoint.id}/enable`, { as: admin });
    assert.equal(enabled.status, 200);
    await enqueue("offer.expired");
    await waitFor(() => r.accepted().length === 1, 10_000, "delivery after enabling");
    assert.equal(JSON.parse(r.accepted()[0]!.body).type, "offer.expired");
    await r.close();
  });
});
