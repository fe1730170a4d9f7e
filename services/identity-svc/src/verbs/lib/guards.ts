import { apiKeyNotAllowed } from "@flowstate/shared/auth/tenant-refusal";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../../context.ts";

/** The signed-in user behind a token (not an API key): profile, sessions, tenants of one's own. */
export function requireUser(ctx: ServiceContext): { sub: string; sid: string } {
  const a = ctx.actor;
  if (a.kind === "user") return { sub: a.sub, sid: a.sid };
  if (a.kind === "api_key") throw apiKeyNotAllowed();
  throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
}
