import type { EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { Logger } from "@flowstate/shared/log/logger";
import { enqueueEvent } from "@flowstate/shared/outbox/enqueue-event";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import type { OffersDeps } from "./deps.ts";
import type { Principal } from "./marketplace/seller-access.ts";

/** A caller of a tenant route: a user or one of the tenant's API keys (the gateway checked both). */
export type Caller = Extract<VerifiedIdentity, { kind: "user" | "api_key" }>;

/**
 * What a verb needs about the call it serves, built per request by the HTTP layer (or by a test).
 * Verbs never read globals. The tenant id is the one the gateway resolved and signed.
 */
export interface ServiceContext {
  tenantId: string;
  caller: Caller;
  /** The caller's role in the tenant (an API key acts with its scope, not a role). */
  role: TenantRole;
  principal: Principal;
  requestId: string;
  trace?: string | undefined;
  logger: Logger;
  deps: OffersDeps;
}

/** A fresh unit of work (verbs here are short: a transaction or two around AWS calls). */
export const newEm = (ctx: Pick<ServiceContext, "deps">): EntityManager => ctx.deps.orm.em.fork();

/** A schema-qualified table name for hand-written SQL (`em.execute` does not apply the ORM's schema). */
export const table = (deps: OffersDeps, name: string): string => `"${deps.schema}"."${name}"`;

/**
 * Enqueues an offers event in `em`'s unit of work (see shared/src/outbox/enqueue-event.ts). The
 * actor is whoever asked for the change, also on the tracker's Succeeded/Failed (it reports the
 * outcome of their request, recorded with it in offer_change).
 */
export function emit<K extends EventKey>(
  em: EntityManager,
  key: K,
  data: z.input<(typeof eventCatalog)[K]>,
  meta: { tenant_id: string; actor: EventActor; request_id?: string | undefined; trace?: string | undefined },
): void {
  enqueueEvent(em, key, data, { source: "flowstate.offers", ...meta });
}
