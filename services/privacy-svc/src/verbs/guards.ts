import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";

/** The signed-in user behind the call (the HTTP layer admits nothing else on /v1). */
export function requireUser(ctx: ServiceContext): { sub: string } {
  if (ctx.actor.kind === "user") return { sub: ctx.actor.sub };
  throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
}
