import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type NotifyHarness, startNotifySvc } from "../testing/harness.ts";
import { enqueueMessage, messageIdOf } from "./enqueue-message.ts";

let h: NotifyHarness;
beforeAll(async () => {
  h = await startNotifySvc({ prefix: "enqueue_race" });
});
afterAll(() => h.close());

describe("enqueueMessage", () => {
  it("records one message per event when eight transactions enqueue the same event at once", async () => {
    // The consumer's processed_event row serialises a redelivered event today; the insert must be
    // safe on its own. A duplicate that passed the arbiter's check before the first insert landed
    // met the other unique index (the id, derived from the event id) in a few rounds of a hundred
    // when only event_id was named.
    const tenantId = `tnt_${randomBytes(8).toString("hex")}`;
    for (let round = 0; round < 100; round++) {
      const event = { id: `evt_${randomBytes(10).toString("hex")}`, occurred_at: new Date().toISOString() };
      const settled = await Promise.allSettled(
        Array.from({ length: 8 }, () =>
          h.db.orm.em.fork().transactional((em) =>
            enqueueMessage(em as never, h.deps, event, {
              tenantId,
              type: "offer.released",
              data: { round },
            }),
          ),
        ),
      );
      const errors = settled.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
      assert.deepEqual(errors, [], `round ${round}`);
      const rows = await h.db.orm.em
        .fork()
        .execute<{ id: string }[]>(`SELECT id FROM "${h.db.schema}".message WHERE event_id = ?`, [event.id]);
      assert.deepEqual(
        rows.map((r) => r.id),
        [messageIdOf(event.id)],
        `round ${round}`,
      );
    }
  });
});
