import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { getTenant } from "../verbs/get-tenant.ts";

export function registerTenantGet(app: IdentityApp): void {
  app.get("/v1/tenants/:id", async (c) => {
    const { id } = parseParams(c, TenantPath);
    return c.json(await getTenant({ ctx: c.get("ctx"), tenantId: id }), 200);
  });
}
