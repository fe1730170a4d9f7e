import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import { applyEvent } from "@flowstate/shared/consumer/apply-event";
import { newEventId } from "@flowstate/shared/outbox/event-id";
import { afterAll, beforeAll, describe, it } from "vitest";
import { notifyConsumer } from "../consumers/consumer.ts";
import { eventOfEachKind } from "../testing/events.ts";
import { type NotifyHarness, startNotifySvc } from "../testing/harness.ts";

/**
 * TenantSoftDeleted and the tenant's other events reach notify-svc in any order (EventBridge and
 * SQS keep none): an event applied after the forgetting, or at the same moment, records nothing
 * and mails nobody. Through the consumer's handlers, each in its own transaction as the queue
 * consumer runs them.
 */
let h: NotifyHarness;
beforeAll(async () => {
  h = await startNotifySvc({ prefix: "forget_tenant" });
});
afterAll(() => h.close());

const apply = (event: DomainEvent) =>
  applyEvent(
    h.db.orm,
    h.db.schema,
    event,
    `${event.type}.v${event.version}`,
    notifyConsumer.handlers[`${event.type}.v${event.version}` as keyof typeof notifyConsumer.handlers]! as never,
    h.deps,
  );
const softDeleted = (tenantId: string) =>
  ({
    id: newEventId(),
    type: "TenantSoftDeleted",
    version: 1,
    source: "flowstate.identity-svc",
    occurred_at: new Date().toISOString(),
    tenant_id: tenantId,
    actor: { kind: "user", sub: "usr_0123456789ab" },
    data: { tenant_id: tenantId },
  }) as unknown as DomainEvent;
/** The tenant's offer result as a person asked for it (a message and a person's mail), and an agreement (a message). */
const tenantEvents = (tenantId: string): DomainEvent[] => {
  const kinds = eventOfEachKind(tenantId);
  return [
    { ...kinds["offer.released"]!, actor: { kind: "user", sub: "usr_0123456789ab" } } as DomainEvent,
    kinds["agreement.created"]!,
  ];
};
const rowsOf = async (tenantId: string) => {
  const [row] = await h.db.orm.em.fork().execute<{ messages: number; mails: number }[]>(
    `SELECT (SELECT count(*)::int FROM "${h.db.schema}".message WHERE tenant_id = ?) AS messages,
            (SELECT count(*)::int FROM "${h.db.schema}".person_mail WHERE tenant_id = ?) AS mails`,
    [tenantId, tenantId],
  );
  return row;
};
const tenant = () => `tnt_${randomBytes(8).toString("hex")}`;

describe("a soft-deleted tenant's events", () => {
  it("are recorded before the forgetting and deleted by it; one delivered after it records nothing", async () => {
    const t = tenant();
    for (const e of tenantEvents(t)) await apply(e);
    assert.deepEqual(await rowsOf(t), { messages: 2, mails: 1 }, "the events' rows, before");
    await apply(softDeleted(t));
    assert.deepEqual(await rowsOf(t), { messages: 0, mails: 0 });
    for (const e of tenantEvents(t)) await apply(e);
    assert.deepEqual(await rowsOf(t), { messages: 0, mails: 0 }, "late events re-created nothing");
  });

  it("applied at the same moment as the forgetting, leave no row", async () => {
    for (let i = 0; i < 20; i++) {
      const t = tenant();
      await Promise.all([...tenantEvents(t).map(apply), apply(softDeleted(t))]);
      assert.deepEqual(await rowsOf(t), { messages: 0, mails: 0 }, `run ${i}`);
    }
  });
});
