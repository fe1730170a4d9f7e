import type { TenantRole } from "@flowstate/contracts/ids";
import type { Member, MemberList } from "@flowstate/contracts/rest/identity/members";
import { preparedRead } from "@flowstate/shared/db/prepared-read";
import type { ServiceContext } from "../context.ts";
import { checkTenantAccess } from "./lib/authorize-tenant.ts";

type Row = { sub: string; name: string; email: string; role: TenantRole; created_at: Date };

export const toMember = (r: Row): Member => ({
  sub: r.sub,
  name: r.name,
  email: r.email,
  role: r.role,
  added_at: new Date(r.created_at).toISOString(),
});

/** Active accounts that are members of the tenant, owner first. */
export async function listMembers({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<MemberList> {
  await checkTenantAccess(ctx, ctx.existingEm(), tenantId, { minRole: "member", apiKey: "read" });
  const rows = await preparedRead<Row>(ctx.em, ctx.deps.tenantReads.members, [tenantId]);
  return { members: rows.map(toMember) };
}
