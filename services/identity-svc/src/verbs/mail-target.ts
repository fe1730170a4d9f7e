import type { MailTarget } from "@flowstate/contracts/internal/identity";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { type ServiceContext, table } from "../context.ts";
import { withDefaults } from "./get-notification-preferences.ts";

/**
 * A person's address and notification preferences, for notify-svc's per-person e-mail. A deleted,
 * disabled or address-less account is ACCOUNT_GONE: there is nobody to write to.
 */
export async function mailTarget({ ctx, sub }: { ctx: ServiceContext; sub: string }): Promise<MailTarget> {
  const [row] = await ctx.em.execute<{ email: string; preferences: Record<string, boolean> | null }[]>(
    `SELECT u.email, p.preferences FROM ${table(ctx, "app_user")} u
       LEFT JOIN ${table(ctx, "notification_preferences")} p ON p.sub = u.sub
      WHERE u.sub = ? AND u.status = 'active' AND NOT u.disabled AND u.email IS NOT NULL`,
    [sub],
  );
  if (!row) throw new DomainError("not_found", "ACCOUNT_GONE", "the account was not found");
  return { sub, email: row.email, preferences: withDefaults(row.preferences ?? undefined) };
}
