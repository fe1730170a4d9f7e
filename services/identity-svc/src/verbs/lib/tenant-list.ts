import type { TenantNeed } from "@flowstate/contracts/auth/tenant-access";
import type { ServiceContext } from "../../context.ts";
import type { TenantLists } from "../../db/tenant-reads.ts";
import { checkTenantAccess } from "./authorize-tenant.ts";

/**
 * A tenant's list (members, flags) for a caller who may read it. Outside a transaction the access
 * check and the list go out together, each a grouped read shared with concurrent requests
 * (tenant-reads.ts): one wait instead of two, and the list is dropped unseen when the check
 * refuses (the refusal is what the caller gets, so a foreign tenant still looks missing). Inside
 * a transaction both run on its connection, in order.
 */
export async function tenantList<R>(
  ctx: ServiceContext,
  lists: TenantLists<R>,
  tenantId: string,
  need: TenantNeed,
): Promise<R[]> {
  const em = ctx.existingEm();
  if (em?.isInTransaction()) {
    await checkTenantAccess(ctx, em, tenantId, need);
    return lists.inTransaction(em, tenantId);
  }
  const [, rows] = await Promise.all([checkTenantAccess(ctx, undefined, tenantId, need), lists.load(tenantId)]);
  return rows;
}
