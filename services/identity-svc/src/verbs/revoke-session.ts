import { systemActor } from "@flowstate/shared/outbox/event-actor";
import type { EntityManager } from "@mikro-orm/postgresql";
import { emit, now, type ServiceContext } from "../context.ts";
import type { UserSession } from "../db/entities.ts";

export type RevokeReason =
  | "signout"
  // POST /v1/auth/signout-everywhere: every session of the account, OAuth grants included.
  | "signout_everywhere"
  | "refresh_token_replayed"
  | "account_disabled"
  | "account_deleted"
  // OAuth token families (src/oauth): the user revoked the client, a code came back, the client revoked a token.
  | "client_revoked"
  | "authorization_code_replayed"
  | "token_revoked";

/** Marks a session revoked (idempotent) and announces it; the caller commits and then invalidates. */
export function revokeSession(
  ctx: ServiceContext,
  em: EntityManager,
  session: UserSession,
  reason: RevokeReason,
): boolean {
  if (session.revoked_at) return false;
  session.revoked_at = now(ctx);
  session.revoked_reason = reason;
  // A replayed refresh token is revoked on identity-svc's judgement, not by the anonymous caller.
  const meta = reason === "refresh_token_replayed" ? { actor: systemActor("identity-svc") } : {};
  const data = { scope: "session" as const, sid: session.sid, sub: session.sub };
  emit(ctx, em, "AccessRevoked.v1", data, { subject: session.sub, ...meta });
  return true;
}
