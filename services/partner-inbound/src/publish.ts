import { createHash } from "node:crypto";
import { type EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { eventCatalog } from "@flowstate/contracts/events/catalog";
import { EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { PartnerEventMetadata } from "@flowstate/contracts/events/partner";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The domain event id of a partner event: the same `evt_` shape as the outbox's ids (time first),
 * but derived from the account and EventBridge's id instead of random. A redelivered message, or
 * one published again after a crash before its delete, gets the same id, and the eu-central-1
 * consumer's processed-event table turns the second copy into a no-op (ADR 0003).
 *
 * @example
 * partnerDomainEventId({ account_id: "222222222222", partner_event_id: "d2bc…", event_time: "2026-11-23T13:25:49.000Z" });
 */
export function partnerDomainEventId(m: Pick<PartnerEventMetadata, "account_id" | "partner_event_id" | "event_time">) {
  const digest = createHash("sha256").update(`${m.account_id}\n${m.partner_event_id}`).digest();
  let tail = "";
  for (const b of digest.subarray(0, 16)) tail += ALPHABET[b % 62];
  return `evt_${Date.parse(m.event_time).toString(36).padStart(9, "0")}${tail}`;
}

/** The envelope partner-inbound publishes; validated against the contracts like the outbox does. */
export function partnerEnvelope(metadata: PartnerEventMetadata): EventEnvelope {
  return EventEnvelope.parse({
    id: partnerDomainEventId(metadata),
    type: "PartnerEventReceived",
    version: 1,
    source: "flowstate.partner-inbound",
    occurred_at: metadata.event_time,
    tenant_id: metadata.tenant_id,
    actor: { kind: "system", service: "partner-inbound" },
    data: eventCatalog["PartnerEventReceived.v1"].parse(metadata),
  });
}

/**
 * Publishes up to 10 envelopes to the eu-central-1 domain bus in one PutEvents call and returns the
 * indexes EventBridge accepted (PutEvents is not all-or-nothing; the rest are retried by SQS
 * redelivery). A call that throws accepts none.
 */
export async function publishEnvelopes(
  eventBridge: EventBridgeClient,
  busName: string,
  envelopes: readonly EventEnvelope[],
): Promise<Set<number>> {
  if (!envelopes.length) return new Set();
  const res = await eventBridge.send(
    new PutEventsCommand({
      Entries: envelopes.map((e) => ({
        EventBusName: busName,
        Source: e.source,
        DetailType: e.type,
        Detail: JSON.stringify(e),
      })),
    }),
  );
  const accepted = new Set<number>();
  res.Entries?.forEach((entry, i) => {
    if (entry.EventId && !entry.ErrorCode) accepted.add(i);
  });
  return accepted;
}
