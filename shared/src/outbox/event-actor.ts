import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";

/**
 * The event actor for a gateway-verified caller: a user, an API key (with the admin who created it),
 * or a platform component calling on its own behalf.
 *
 * @example
 * enqueueEvent(em, "ConnectorConnected.v1", data, {
 *   source: "flowstate.connector", tenant_id, actor: eventActorOf(identity), request_id: requestId,
 * });
 */
export function eventActorOf(identity: VerifiedIdentity): EventActor {
  switch (identity.kind) {
    case "user":
      return { kind: "user", sub: identity.sub };
    case "api_key":
      return { kind: "api_key", key_id: identity.key_id, sub: identity.sub };
    case "service":
      return { kind: "system", service: identity.service };
  }
}

/**
 * The actor for what a service does on its own: a consumer reacting to an event, a scheduled job.
 *
 * @example
 * enqueueEvent(em, "ExportCompleted.v1", data, { source: "flowstate.privacy", actor: systemActor("privacy-svc"), subject: sub });
 */
export const systemActor = (service: string): EventActor => ({ kind: "system", service });

/** An unauthenticated caller whose request still produced an event. */
export const anonymousActor: EventActor = { kind: "anonymous" };
