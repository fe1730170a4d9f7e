import type { DomainEvent, EventKey } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import { newId } from "@flowstate/shared/ids/new-id";
import { newEventId } from "@flowstate/shared/outbox/event-id";

/** A valid envelope of catalog entry `key` with `data`, for tests that send straight to the queue. */
export function domainEvent<K extends EventKey>(
  key: K,
  data: DomainEvent<K>["data"],
  meta: { actor?: EventActor; subject?: string; tenant_id?: string; request_id?: string; occurred_at?: string } = {},
): DomainEvent<K> {
  const [type, version] = key.split(".v") as [string, string];
  return {
    id: newEventId(),
    type,
    version: Number(version),
    source: "flowstate.identity",
    occurred_at: meta.occurred_at ?? new Date().toISOString(),
    actor: meta.actor ?? { kind: "system", service: "identity-svc" },
    ...(meta.subject ? { subject: meta.subject } : {}),
    ...(meta.tenant_id ? { tenant_id: meta.tenant_id } : {}),
    ...(meta.request_id ? { request_id: meta.request_id } : {}),
    data,
  } as DomainEvent<K>;
}

export const newSub = () => newId("usr");
export const newTenantId = () => newId("tnt");
