import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { offerSucceeded } from "../src/messages/message-of.ts";
import { eventOfEachKind } from "../src/testing/events.ts";
import { type NotifyHarness, startNotifySvc } from "../src/testing/harness.ts";
import { startReceiver } from "../src/testing/receiver.ts";
import { enqueueMessage } from "../src/verbs/enqueue-message.ts";

/**
 * An endpoint that fails every attempt for the whole retry window is disabled (production: 24 h
 * and at least 10 attempts; here 1.5 s and 3), its pending deliveries closed, and enabling it
 * again sends new messages. Enqueued as the consumer would, without the queue (delivery.e2e.test.ts has that path).
 */
let h: NotifyHarness;
beforeAll(async () => {
  h = await startNotifySvc({
    prefix: "disable",
    delivery: { retryWindowMs: 1_500, disableAfterFailures: 3, backoffBaseMs: 100, backoffMaxMs: 200 },
  });
});
afterAll(() => h.close());

const admin: VerifiedIdentity = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" };

describe("a failing endpoint", () => {
  it("is disabled after failing for the retry window, and takes messages again once enabled", async () => {
    const t = `tnt_${randomBytes(8).toString("hex")}`;
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

    r.down = false;
    const enabled = await h.call("POST", `${path}/${endpoint.id}/enable`, { as: admin });
    assert.equal(enabled.status, 200);
    await enqueue("offer.expired");
    await waitFor(() => r.accepted().length === 1, 10_000, "delivery after enabling");
    assert.equal(JSON.parse(r.accepted()[0]!.body).type, "offer.expired");
    await r.close();
  });
});
