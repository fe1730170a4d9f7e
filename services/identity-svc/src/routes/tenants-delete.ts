import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { softDeleteTenant } from "../verbs/soft-delete-tenant.ts";

export function registerTenantDelete(app: IdentityApp): void {
  app.delete("/v1/tenants/:id", async (c) => {
    const { id } = parseParams(c, TenantPath);
    await softDeleteTenant({ ctx: c.get("ctx"), tenantId: id });
    return c.body(null, 204);
  });
}
