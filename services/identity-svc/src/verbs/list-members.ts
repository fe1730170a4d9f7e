import type { Member, MemberList } from "@flowstate/contracts/rest/identity/members";
import type { ServiceContext } from "../context.ts";
import type { MemberRow } from "../db/tenant-reads.ts";
import { tenantList } from "./lib/tenant-list.ts";

export const toMember = (r: MemberRow): Member => ({
  sub: r.sub,
  name: r.name,
  email: r.email,
  role: r.role,
  added_at: new Date(r.created_at).toISOString(),
});

/** Active accounts that are members of the tenant, owner first. */
export async function listMembers({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<MemberList> {
  const rows = await tenantList(ctx, ctx.deps.tenantReads.members, tenantId, { minRole: "member", apiKey: "read" });
  return { members: rows.map(toMember) };
}
