import type { Invalidation } from "@flowstate/contracts/internal/identity";
import type { EntityManager } from "@mikro-orm/postgresql";
import { emit, now, type ServiceContext } from "../../context.ts";
import { type User, UserSession } from "../../db/entities.ts";
import type { RevokeReason } from "../revoke-session.ts";
import { type KeyRevokeReason, revokeKeysOf } from "./revoke-keys-of.ts";

/**
 * Everything an account could still get in with, stopped in the caller's transaction (the user row
 * must already be locked FOR UPDATE): `tokens_valid_after` moves to now (every access token issued
 * so far fails the session check), every live session (refresh family) is revoked, and every live
 * API key the account created is revoked. One AccessRevoked(account) tells other gateways.
 */
export async function revokeAccountAccess(
  ctx: ServiceContext,
  em: EntityManager,
  user: User,
  reason: { session: RevokeReason; key: KeyRevokeReason },
): Promise<Invalidation[]> {
  const at = now(ctx);
  user.tokens_valid_after = at;
  const sessions = await em.find(UserSession, { sub: user.sub, revoked_at: null });
  for (const s of sessions) Object.assign(s, { revoked_at: at, revoked_reason: reason.session });
  const keys = await revokeKeysOf(ctx, em, user.sub, reason.key);
  emit(ctx, em, "AccessRevoked.v1", { scope: "account", sub: user.sub }, { subject: user.sub });
  return [
    { scope: "account", sub: user.sub },
    ...sessions.map((s) => ({ scope: "session" as const, sid: s.sid, sub: user.sub })),
    ...keys,
  ];
}
