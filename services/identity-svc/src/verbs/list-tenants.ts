import type { TenantList } from "@flowstate/contracts/rest/identity/tenants";
import type { ServiceContext } from "../context.ts";
import { requireUser } from "./lib/guards.ts";
import { tenantsOf } from "./lib/tenant-view.ts";

/** The active tenants the caller is a member of, oldest first. */
export async function listTenants({ ctx }: { ctx: ServiceContext }): Promise<TenantList> {
  const { sub } = requireUser(ctx);
  return { tenants: await tenantsOf(ctx, ctx.em, sub) };
}
