import type { TenantRole } from "@flowstate/contracts/ids";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";

/** The signed-in user behind a token (not an API key): profile, sessions, tenants of one's own. */
export function requireUser(ctx: ServiceContext): { sub: string; sid: string } {
  const a = ctx.actor;
  if (a.kind === "user") return { sub: a.sub, sid: a.sid };
  if (a.kind === "api_key") {
    throw new DomainError(
      "forbidden",
      "API_KEY_NOT_ALLOWED",
      "this operation needs a user's access token, not an API key",
    );
  }
  throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
}

const RANK: Record<TenantRole, number> = { member: 1, admin: 2, owner: 3 };
export const atLeast = (role: TenantRole, min: TenantRole): boolean => RANK[role] >= RANK[min];

export const insufficientRole = (min: TenantRole) =>
  new DomainError("forbidden", "INSUFFICIENT_ROLE", `this operation needs the ${min} role in the tenant`, {
    extensions: { required_role: min },
  });
