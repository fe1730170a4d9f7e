import type { EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { Logger } from "@flowstate/shared/log/logger";
import { enqueueEvent } from "@flowstate/shared/outbox/enqueue-event";
import { eventActorOf, systemActor } from "@flowstate/shared/outbox/event-actor";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import type { PrivacyDeps } from "./deps.ts";

/** What a verb needs about the call it serves, built per request (or per message, or by a test). */
export interface ServiceContext {
  em: EntityManager;
  actor: VerifiedIdentity | { kind: "system" };
  requestId: string;
  trace?: string | undefined;
  logger: Logger;
  deps: PrivacyDeps;
}

/** privacy-svc acting on its own judgement: a consumer building an export, the sweeper. */
export const SYSTEM: EventActor = systemActor("privacy-svc");

/** Who the events of a request name as their actor (the verified caller). */
export const actorOf = (ctx: ServiceContext): EventActor =>
  ctx.actor.kind === "system" ? SYSTEM : eventActorOf(ctx.actor);

/** Enqueues a privacy event in `em`'s unit of work (shared/src/outbox/enqueue-event.ts). */
export function emit<K extends EventKey>(
  em: EntityManager,
  key: K,
  data: z.input<(typeof eventCatalog)[K]>,
  meta: { subject: string; actor: EventActor; trace?: string | undefined; request_id?: string | undefined },
): void {
  enqueueEvent(em, key, data, { source: "flowstate.privacy", ...meta });
}

/** A schema-qualified table name for hand-written SQL. */
export const table = (deps: PrivacyDeps, name: string): string => `"${deps.schema}"."${name}"`;

/** Runs `fn` in a transaction of its own (a fresh fork), committing when it resolves. */
export const transaction = <T>(deps: PrivacyDeps, fn: (em: EntityManager) => Promise<T>): Promise<T> =>
  deps.orm.em.fork().transactional((em) => fn(em as EntityManager));
