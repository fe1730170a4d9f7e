import { z } from "zod";
import { ApiKeyId, EventId, RequestId, Sub, TenantId, TraceParent } from "../ids.ts";

/** A signed-in person as an event's actor. */
export const UserActor = z.object({ kind: z.literal("user"), sub: Sub });
/** A tenant API key as an event's actor, with the admin who answers for it. */
export const ApiKeyActor = z.object({ kind: z.literal("api_key"), key_id: ApiKeyId, sub: Sub });

/**
 * Who caused an event, as opposed to `subject` (whom the event is about). An admin who adds a
 * member is the actor; the member is the subject. audit-svc stores both, so neither may be guessed.
 *
 * - `user`: a signed-in person (or the person signing up, for `UserSignedUp`).
 * - `api_key`: a tenant API key; `sub` is the admin who created it and answers for it.
 * - `system`: a service acting on its own judgement: a consumer reacting to an event, a scheduled
 *   job, a refresh-token replay detected by identity-svc. `service` is the service's directory name.
 * - `anonymous`: an unauthenticated caller whose act still produced an event (a sign-up attempt
 *   with an e-mail that already has an account).
 *
 * Build one from the gateway-verified identity with `eventActorOf` (shared/src/outbox/event-actor.ts).
 */
export const EventActor = z.discriminatedUnion("kind", [
  UserActor,
  ApiKeyActor,
  z.object({ kind: z.literal("system"), service: z.string().regex(/^[a-z][a-z0-9-]{1,40}$/) }),
  z.object({ kind: z.literal("anonymous") }),
]);
export type EventActor = z.infer<typeof EventActor>;

/**
 * The envelope every domain event travels in, whatever its type. `data` is validated separately
 * against the catalog entry for (`type`, `version`), so an unknown or newer event can still be
 * recognised, logged and dead-lettered rather than crash a consumer.
 */
export const EventEnvelope = z.object({
  id: EventId,
  type: z.string().regex(/^[A-Z][A-Za-z]+$/, "expected a PascalCase event type"),
  version: z.number().int().positive(),
  source: z.string().regex(/^flowstate\.[a-z-]+$/, "expected flowstate.<service>"),
  occurred_at: z.iso.datetime({ offset: true }),
  tenant_id: TenantId.optional(),
  /** Who did it (see EventActor); always present. */
  actor: EventActor,
  /** Whom the event is about, when it is about a person (a `sub`); absent for tenant-level facts. */
  subject: Sub.optional(),
  /** The request that caused the event, when there was one (ties an audit row to logs and problem answers). */
  request_id: RequestId.optional(),
  trace: TraceParent.optional(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;
