import type { CreateTenantRequest, Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { newId } from "@flowstate/shared/ids/new-id";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { Membership, Tenant as TenantRow } from "../db/entities.ts";
import { loadActiveUser } from "./get-profile.ts";
import { requireUser } from "./lib/guards.ts";

/** Creates a tenant with the caller as its owner. */
export async function createTenant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: CreateTenantRequest;
}): Promise<Tenant> {
  const { sub } = requireUser(ctx);
  const id = newId("tnt");
  const at = now(ctx);
  await inTransaction(ctx, async (em) => {
    // FOR UPDATE on the user, like deleteAccount: an account being deleted cannot gain a tenant.
    await loadActiveUser(em, sub, true);
    em.create(TenantRow, {
      id,
      name: input.name,
      status: "active",
      created_at: at,
      deleted_at: null,
      deleted_by: null,
    });
    em.create(Membership, { tenant_id: id, sub, role: "owner", created_at: at });
    emit(ctx, em, "TenantCreated.v1", { tenant_id: id, owner_sub: sub }, { tenant_id: id, subject: sub });
  });
  return { id, name: input.name, owner_sub: sub, role: "owner", created_at: at.toISOString() };
}
