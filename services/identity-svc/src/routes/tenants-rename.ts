import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { RenameTenantRequest } from "@flowstate/contracts/rest/identity/tenants";
import { parseParams, readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { renameTenant } from "../verbs/rename-tenant.ts";

export function registerTenantRename(app: IdentityApp): void {
  app.patch("/v1/tenants/:id", async (c) => {
    const { id } = parseParams(c, TenantPath);
    const input = await readJson(c, RenameTenantRequest);
    return c.json(await renameTenant({ ctx: c.get("ctx"), tenantId: id, input }), 200);
  });
}
