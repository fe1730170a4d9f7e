import type { EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { Channel, TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import type { Database } from "../db/open-database.ts";
import type { Logger } from "../log/logger.ts";
import { eventActorOf } from "../outbox/event-actor.ts";
import { type EmitMeta, emitEvent } from "./emit-event.ts";
import { qualifiedTable } from "./table.ts";

/**
 * Who is calling: a user or a tenant API key (forwarded and signed by a gateway), a platform
 * `service` (its own identity on /internal/v1; also the service itself for a consumer or job), or
 * `anonymous` on a public route of the registry.
 */
export type Caller = VerifiedIdentity | { kind: "anonymous" };

/** A caller whose credential can be revoked: the ones a write re-checks. */
export type CredentialCaller = Extract<VerifiedIdentity, { kind: "user" | "api_key" }>;

/**
 * How a write re-checks the caller's credential (ADR 0012): `local` runs inside the write's
 * transaction (identity-svc, which owns the facts, under its locks); `remote` asks identity-svc
 * just before the transaction opens (credential-check.ts), so no pooled connection waits on HTTP.
 * Either throws the 401 (SESSION_REVOKED, INVALID_API_KEY) or 503 when it cannot tell.
 */
export type CredentialCheck =
  | { local: (caller: CredentialCaller, em: EntityManager) => Promise<void> }
  | { remote: (caller: CredentialCaller) => Promise<void> };

/** What every service's deps hold for the seam. */
export interface SeamDeps {
  orm: Database;
  /** The ORM's schema, for hand-written SQL (`table`). */
  schema: string;
  logger: Logger;
}

export interface CallFacts {
  caller: Caller;
  channel?: Channel | undefined;
  tenant?: TenantContext | undefined;
  requestId?: string | undefined;
  /** A valid W3C traceparent (inbound-headers.ts `validTraceparent`), or undefined. */
  trace?: string | undefined;
  logger: Logger;
}

/**
 * The one thing a verb gets about the call it serves, built by the seam per request (or by
 * `systemCall` for a consumer or job): who calls, through which door, in which tenant (as the
 * gateway resolved and signed it), the request id and a validated trace, the service's deps, and
 * the three helpers every database service needs, so none writes its own:
 * - `transaction(fn)`: a fresh unit of work that first re-checks a user's session or an API key
 *   (a write signed before a revocation and replayed inside the window writes nothing);
 * - `emit(em, key, data, meta)`: an event in that unit of work, actor/request id/trace filled in;
 * - `table(name)`: the schema-qualified name for hand-written SQL.
 *
 * @example
 * await call.transaction(async (em) => {
 *   await em.execute(`INSERT INTO ${call.table("export_job")} ...`, [...]);
 *   call.emit(em, "ExportRequested.v1", { job_id, sub }, { subject: sub });
 * });
 */
export class CallContext<D extends SeamDeps = SeamDeps> {
  readonly caller: Caller;
  readonly channel: Channel | undefined;
  readonly tenant: TenantContext | undefined;
  readonly requestId: string | undefined;
  readonly trace: string | undefined;
  readonly logger: Logger;
  readonly service: FlowstateServiceName;
  readonly deps: D;
  readonly #credentials: CredentialCheck | undefined;

  constructor(service: FlowstateServiceName, deps: D, facts: CallFacts, credentials: CredentialCheck | undefined) {
    this.service = service;
    this.deps = deps;
    this.#credentials = credentials;
    this.caller = facts.caller;
    this.channel = facts.channel;
    this.tenant = facts.tenant;
    this.requestId = facts.requestId;
    this.trace = facts.trace;
    this.logger = facts.logger;
  }

  /** Who the events of this call name as their actor. */
  get actor(): EventActor {
    return this.caller.kind === "anonymous" ? { kind: "anonymous" } : eventActorOf(this.caller);
  }

  /** The acting person's `sub` (an API key acts through its creator), or null for a service or nobody. */
  get sub(): string | null {
    return this.caller.kind === "user" || this.caller.kind === "api_key" ? this.caller.sub : null;
  }

  /** A schema-qualified table name for hand-written SQL (`em.execute` does not apply the ORM's schema). */
  table(name: string): string {
    return qualifiedTable(this.deps.schema, name);
  }

  /**
   * Re-checks a user's session or an API key's liveness with identity-svc (a `remote` check);
   * nothing for a service or anonymous caller, nor for a `local` check (that runs in the
   * transaction). mountRoute calls it before a write route's handler (route-access.ts).
   */
  async recheckCredential(): Promise<void> {
    const c = this.caller;
    if (c.kind !== "user" && c.kind !== "api_key") return;
    const check = this.requireCheck();
    if ("remote" in check) await check.remote(c);
  }

  /**
   * Runs `fn` in a transaction of its own (a fresh fork), committing when it resolves, after
   * re-checking a user's or API key's credential. Fails closed: a service built without a
   * credential check cannot write for such a caller at all.
   */
  async transaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    const c = this.caller;
    const check = c.kind === "user" || c.kind === "api_key" ? this.requireCheck() : undefined;
    if (check && "remote" in check) await check.remote(c as CredentialCaller);
    return this.deps.orm.em.fork().transactional(async (em) => {
      if (check && "local" in check) await check.local(c as CredentialCaller, em as EntityManager);
      return fn(em as EntityManager);
    });
  }

  /** Enqueues one of this service's events in `em`'s unit of work, as this call's actor, request and trace. */
  emit<K extends EventKey>(
    em: EntityManager,
    key: K,
    data: z.input<(typeof eventCatalog)[K]>,
    meta: Omit<EmitMeta, "actor" | "request_id" | "trace"> & { actor?: EventActor } = {},
  ): void {
    emitEvent(this.service, em, key, data, {
      actor: this.actor,
      request_id: this.requestId,
      trace: this.trace,
      ...meta,
    });
  }

  private requireCheck(): CredentialCheck {
    if (!this.#credentials) {
      throw new Error(`${this.service} writes for a caller but was built without a credential check (serviceSeam)`);
    }
    return this.#credentials;
  }
}

/**
 * The call context of a service acting on its own: a consumer handling an event, a scheduled job.
 * Its caller is the service's own identity (events name it as the `system` actor); nothing to re-check.
 *
 * @example
 * const call = systemCall("privacy-svc", deps, { requestId: event.request_id, trace: event.trace });
 */
export function systemCall<D extends SeamDeps>(
  service: Extract<VerifiedIdentity, { kind: "service" }>["service"] & FlowstateServiceName,
  deps: D,
  facts: Partial<Omit<CallFacts, "caller">> = {},
): CallContext<D> {
  return new CallContext(
    service,
    deps,
    { logger: deps.logger, ...facts, caller: { kind: "service", service } },
    undefined,
  );
}
