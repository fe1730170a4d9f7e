import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { AddMemberRequest } from "@flowstate/contracts/rest/identity/members";
import { parseParams, readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { addMember } from "../verbs/add-member.ts";

export function registerMemberAdd(app: IdentityApp): void {
  app.post("/v1/tenants/:id/members", async (c) => {
    const { id } = parseParams(c, TenantPath);
    const input = await readJson(c, AddMemberRequest);
    return c.json(await addMember({ ctx: c.get("ctx"), tenantId: id, input }), 201);
  });
}
