import { MemberPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { removeMember } from "../verbs/remove-member.ts";

export function registerMemberRemove(app: IdentityApp): void {
  app.delete("/v1/tenants/:id/members/:sub", async (c) => {
    const { id, sub } = parseParams(c, MemberPath);
    await removeMember({ ctx: c.get("ctx"), tenantId: id, sub });
    return c.body(null, 204);
  });
}
