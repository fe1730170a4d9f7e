import { MemberPath } from "@flowstate/contracts/rest/identity/common";
import { ChangeMemberRoleRequest } from "@flowstate/contracts/rest/identity/members";
import { parseParams, readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { changeMemberRole } from "../verbs/change-member-role.ts";

export function registerMemberUpdate(app: IdentityApp): void {
  app.patch("/v1/tenants/:id/members/:sub", async (c) => {
    const { id, sub } = parseParams(c, MemberPath);
    const input = await readJson(c, ChangeMemberRoleRequest);
    return c.json(await changeMemberRole({ ctx: c.get("ctx"), tenantId: id, sub, input }), 200);
  });
}
