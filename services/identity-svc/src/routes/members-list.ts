import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { listMembers } from "../verbs/list-members.ts";

export function registerMemberList(app: IdentityApp): void {
  app.get("/v1/tenants/:id/members", async (c) => {
    const { id } = parseParams(c, TenantPath);
    return c.json(await listMembers({ ctx: c.get("ctx"), tenantId: id }), 200);
  });
}
