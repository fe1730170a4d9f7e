import type { EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { Channel, TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { Logger } from "@flowstate/shared/log/logger";
import { enqueueEvent } from "@flowstate/shared/outbox/enqueue-event";
import { eventActorOf } from "@flowstate/shared/outbox/event-actor";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import type { ConnectorDeps } from "./deps.ts";

/**
 * What a verb needs about the call it serves: who (the gateway-verified identity, or the service
 * itself for a consumer), the tenant context and channel the gateway signed. Built per request by
 * the HTTP layer or per message by a consumer; verbs never read globals. Verbs fork an
 * EntityManager only when they write (reads go to the pool as prepared statements).
 */
export interface ServiceContext {
  actor: VerifiedIdentity | { kind: "system" };
  tenant?: TenantContext | undefined;
  channel?: Channel | undefined;
  requestId?: string | undefined;
  trace?: string | undefined;
  logger: Logger;
  deps: ConnectorDeps;
}

const actorOf = (ctx: ServiceContext): EventActor =>
  ctx.actor.kind === "system" ? { kind: "system", service: "connector-svc" } : eventActorOf(ctx.actor);

/** Enqueues a connector event in `em`'s unit of work (committed with the change, see the outbox). */
export function emit<K extends EventKey>(
  ctx: ServiceContext,
  em: EntityManager,
  key: K,
  data: z.input<(typeof eventCatalog)[K]>,
  tenantId: string,
): void {
  enqueueEvent(em, key, data, {
    source: "flowstate.connector",
    tenant_id: tenantId,
    actor: actorOf(ctx),
    request_id: ctx.requestId,
    trace: ctx.trace,
  });
}

/** The acting person's `sub`, for `connected_by` (an API key answers through its creator). */
export const actingSub = (ctx: ServiceContext): string | null =>
  ctx.actor.kind === "user" || ctx.actor.kind === "api_key" ? ctx.actor.sub : null;
