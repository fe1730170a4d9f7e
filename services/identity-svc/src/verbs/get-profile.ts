import type { Profile } from "@flowstate/contracts/rest/identity/users";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../context.ts";
import { User } from "../db/entities.ts";
import { requireUser } from "./lib/guards.ts";

export const toProfile = (u: User): Profile => ({
  sub: u.sub,
  name: u.name,
  email: u.email!,
  picture_url: u.picture_url ?? null,
  status: u.status,
  created_at: u.created_at.toISOString(),
});

/** The live account behind the caller, or 401: a deleted or disabled account has no profile to show. */
export async function loadActiveUser(em: EntityManager, sub: string, lock?: boolean): Promise<User> {
  const user = await em.findOne(User, { sub }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (user?.status !== "active" || user.disabled) {
    throw new DomainError("unauthenticated", "ACCOUNT_INACTIVE", "this account is disabled or deleted");
  }
  return user;
}

export async function getProfile({ ctx }: { ctx: ServiceContext }): Promise<Profile> {
  const { sub } = requireUser(ctx);
  return toProfile(await loadActiveUser(ctx.em, sub));
}
