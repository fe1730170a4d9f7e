import type { EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { Invalidation, TenantContext } from "@flowstate/contracts/internal/identity";
import { newRequestId } from "@flowstate/shared/http/request-id";
import type { Logger } from "@flowstate/shared/log/logger";
import { enqueueEvent, type OutboxRow, outboxRow } from "@flowstate/shared/outbox/enqueue-event";
import { anonymousActor, eventActorOf, systemActor } from "@flowstate/shared/outbox/event-actor";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import type { Actor } from "./actor.ts";
import type { IdentityDeps } from "./deps.ts";
import type { LiveDoor } from "./doors/door-leases.ts";
import { requireLiveCredential } from "./verbs/lib/live-credential.ts";

export type { Actor } from "./actor.ts";
export { table } from "./sql-table.ts";

/** What the caller of a verb supplies; the rest of a ServiceContext comes from the deps. */
export interface CallInfo {
  actor: Actor;
  /** The tenant context the gateway resolved for `/v1/tenants/{id}/**`, when present. */
  tenant?: TenantContext | undefined;
  /** The request's id; a job or test gets a fresh `req_…` one. */
  requestId?: string | undefined;
  /** The request's W3C traceparent, already validated (shared/src/http/inbound-headers.ts). */
  trace?: string | undefined;
  /** The request's logger (bound to its id); the service's logger otherwise. */
  logger?: Logger | undefined;
}

/**
 * What a verb needs about the call it serves, the same class for HTTP requests, jobs, consumers
 * and tests (`new ServiceContext(deps, { actor })`); verbs never read globals. `invalidations`
 * collects the caches the gateway must drop; the HTTP layer turns them into the
 * `flowstate-invalidate` answer header.
 *
 * `em` is forked from the ORM on first use rather than up front. A MikroORM fork costs ~5 µs of CPU
 * (it copies configuration and services per fork; ~6% of identity-svc's CPU under the 40-gateway
 * bench), and the hottest read, GET /v1/tenants/{id}, never touches a unit of work (it goes
 * through the shared coalesced reader). A prototype getter, not Object.defineProperty on each
 * context: that measured ~1% of all samples by itself. Do not spread one (`{ ...ctx }` drops the
 * getter): use `withEm` to run a verb inside another unit of work.
 */
export class ServiceContext {
  #em: EntityManager | undefined;
  readonly deps: IdentityDeps;
  readonly actor: Actor;
  readonly tenant: TenantContext | undefined;
  readonly requestId: string;
  readonly trace: string | undefined;
  readonly logger: Logger;
  readonly invalidations: Invalidation[];
  /**
   * The doors to push `invalidations` to, when the call's write transaction read them before it
   * committed, under the door set's lock (doors/door-leases.ts `atCommit`); otherwise the push
   * reads them after the handler. Set only by a verb whose transaction is the call's last write.
   */
  doorsAtCommit: LiveDoor[] | undefined;

  constructor(deps: IdentityDeps, call: CallInfo, em?: EntityManager, invalidations: Invalidation[] = []) {
    this.deps = deps;
    this.actor = call.actor;
    this.tenant = call.tenant;
    this.requestId = call.requestId ?? newRequestId();
    this.trace = call.trace;
    this.logger = call.logger ?? deps.logger;
    this.#em = em;
    this.invalidations = invalidations;
    this.doorsAtCommit = undefined;
  }

  get em(): EntityManager {
    this.#em ??= this.deps.orm.em.fork();
    return this.#em;
  }

  /** The same call in the unit of work `em` (a test or a larger verb composing verbs in one transaction). */
  withEm(em: EntityManager): ServiceContext {
    return new ServiceContext(this.deps, this, em, this.invalidations);
  }

  /**
   * `em` when it exists already, without forking one; undefined means no unit of work was
   * started for this call, so it is certainly not in a transaction.
   */
  existingEm(): EntityManager | undefined {
    return this.#em;
  }
}

/**
 * Runs `fn` in a transaction, joining the caller's if `ctx.em` is already in one (a test or a
 * larger verb composes verbs that way); otherwise commits when `fn` resolves. A transaction it
 * opens for a user or an API key first re-checks, under lock, that the credential has not been
 * revoked since the gateway signed the request (live-credential.ts).
 */
export function inTransaction<T>(ctx: ServiceContext, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  if (ctx.em.isInTransaction()) return fn(ctx.em);
  return ctx.em.transactional(async (em) => {
    await requireLiveCredential(ctx, em as EntityManager);
    return fn(em as EntityManager);
  });
}

/** Who the events of this call name as their actor (see EventActor in contracts). */
export function eventActor(ctx: ServiceContext): EventActor {
  if (ctx.actor.kind === "anonymous") return anonymousActor;
  if (ctx.actor.kind === "system") return systemActor("identity-svc");
  return eventActorOf(ctx.actor);
}

export interface EmitMeta {
  tenant_id?: string;
  /**
   * Whom the event is about (the member added, the account revoked), or null for a tenant-level
   * fact. Required so that every call site decides; it is NOT the caller (that is the actor).
   */
  subject: string | null;
  /** Overrides the caller-derived actor (a sign-up names the new account; a detected replay, the system). */
  actor?: EventActor;
}

/**
 * Enqueues an identity event in `em`'s unit of work (see shared/src/outbox/enqueue-event.ts), with
 * the caller as actor and the request's id and trace.
 */
export function emit<K extends EventKey>(
  ctx: ServiceContext,
  em: EntityManager,
  key: K,
  data: z.input<(typeof eventCatalog)[K]>,
  meta: EmitMeta,
): void {
  enqueueEvent(em, key, data, enqueueMeta(ctx, meta));
}

/**
 * The same event as `emit` enqueues, as an outbox row for a statement that inserts it together with
 * its change (shared/src/outbox/outbox-insert.ts), in the same transaction.
 */
export function eventRow<K extends EventKey>(
  ctx: ServiceContext,
  key: K,
  data: z.input<(typeof eventCatalog)[K]>,
  meta: EmitMeta,
): OutboxRow {
  return outboxRow(key, data, enqueueMeta(ctx, meta));
}

const enqueueMeta = (ctx: ServiceContext, meta: EmitMeta) => ({
  source: "flowstate.identity",
  tenant_id: meta.tenant_id,
  actor: meta.actor ?? eventActor(ctx),
  subject: meta.subject ?? undefined,
  request_id: ctx.requestId,
  trace: ctx.trace,
});

/** The caller's clock reading, injectable so key rotation and expiry are testable. */
export const now = (ctx: ServiceContext): Date => ctx.deps.clock();
