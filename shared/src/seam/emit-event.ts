import type { EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import { type EnqueueMeta, enqueueEvent } from "../outbox/enqueue-event.ts";

/** What an event says beyond its payload; the source is the service's, the rest the call's. */
export type EmitMeta = Omit<EnqueueMeta, "source">;

/** `connector-svc` → `flowstate.connector`: the EventBridge source of a service's events. */
export const eventSource = (service: FlowstateServiceName): string => `flowstate.${service.replace(/-svc$/, "")}`;

/**
 * Enqueues one of `service`'s events in `em`'s unit of work (shared/src/outbox/enqueue-event.ts):
 * the call context's `emit` for a request, or directly for a consumer or job (`systemActor`).
 * `meta.trace` must already be valid (the seam validated it); an invalid one would throw here.
 *
 * @example
 * emitEvent("privacy-svc", em, "ExportCompleted.v1", data, { actor: systemActor("privacy-svc"), subject: sub });
 */
export function emitEvent<K extends EventKey>(
  service: FlowstateServiceName,
  em: EntityManager,
  key: K,
  data: z.input<(typeof eventCatalog)[K]>,
  meta: EmitMeta & { actor: EventActor },
): void {
  enqueueEvent(em, key, data, { source: eventSource(service), ...meta });
}
