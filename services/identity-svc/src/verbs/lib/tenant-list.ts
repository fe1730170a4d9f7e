import type { TenantNeed } from "@flowstate/contracts/auth/tenant-access";
import { notFound } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../../context.ts";
import type { TenantLists } from "../../db/tenant-reads.ts";
import { decide, tenantActor } from "./authorize-tenant.ts";

/**
 * A tenant's list (members, flags, API keys) for a caller who may read it: one statement answers
 * the list with the caller's role in the tenant (tenant-reads.ts), so the access check costs no
 * statement of its own. Outside a transaction the statement is shared with concurrent reads; inside
 * one it runs on the transaction's connection. The refusals are `checkTenantAccess`'s: a tenant
 * that is missing, deleted or not the caller's is 404 before any 403, and the list is dropped
 * unseen.
 */
export async function tenantList<R>(
  ctx: ServiceContext,
  lists: TenantLists<R>,
  tenantId: string,
  need: TenantNeed,
): Promise<R[]> {
  const a = tenantActor(ctx, tenantId);
  const em = ctx.existingEm();
  const read = em?.isInTransaction()
    ? await lists.inTransaction(em, a.sub, tenantId)
    : await lists.load(a.sub, tenantId);
  if (!read) throw notFound("tenant");
  decide(need, a, read.role);
  return read.rows;
}
