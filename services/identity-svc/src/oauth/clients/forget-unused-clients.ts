import { now, type ServiceContext, table } from "../../context.ts";

/**
 * Housekeeping (issue 20 finding 8): deletes RFC 7591 clients never used for a token
 * (`first_token_at` null) `unusedClientTtlMs` (a day) after their registration, so abandoned or
 * junk registrations do not pile up. An authorization started with one in its last minutes fails
 * at the exchange as an unknown client would; a real client registers again.
 *
 * @example
 * await forgetUnusedClients(ctx); // how many were deleted
 */
export async function forgetUnusedClients(ctx: ServiceContext): Promise<number> {
  const before = new Date(now(ctx).getTime() - ctx.deps.oauth.unusedClientTtlMs);
  const rows = await ctx.em.execute<{ n: number }[]>(
    `WITH gone AS (DELETE FROM ${table(ctx, "oauth_client")}
                    WHERE first_token_at IS NULL AND created_at < ? RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before],
  );
  return rows[0]?.n ?? 0;
}
