import { notFound } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { User } from "../db/entities.ts";
import { revokeAccountAccess } from "./lib/revoke-account-access.ts";

/**
 * Disables an account and revokes everything it holds, in one transaction: sign-in and refresh
 * refuse it, its access tokens fail the next session check, its API keys stop. Idempotent. For
 * operators and the account-deletion work; there is no public route (a user deletes, not disables).
 */
export async function disableAccount({
  ctx,
  sub,
}: {
  ctx: ServiceContext;
  sub: string;
}): Promise<{ sub: string; disabled_at: string }> {
  const { disabledAt, invalidations } = await inTransaction(ctx, async (em) => {
    const user = await em.findOne(User, { sub }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!user) throw notFound("account");
    if (user.disabled && user.disabled_at)
      return { disabledAt: user.disabled_at, invalidations: [{ scope: "account" as const, sub }] };
    const at = now(ctx);
    user.disabled = true;
    user.disabled_at = at;
    const invalidations = await revokeAccountAccess(ctx, em, user, {
      session: "account_disabled",
      key: "creator_disabled",
    });
    emit(ctx, em, "AccountDisabled.v1", { sub, disabled_at: at.toISOString() }, { subject: sub });
    return { disabledAt: at, invalidations };
  });
  ctx.invalidations.push(...invalidations);
  return { sub, disabled_at: disabledAt.toISOString() };
}
