import { CreateTenantRequest } from "@flowstate/contracts/rest/identity/tenants";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { createTenant } from "../verbs/create-tenant.ts";

export function registerTenantCreate(app: IdentityApp): void {
  app.post("/v1/tenants", async (c) => {
    const input = await readJson(c, CreateTenantRequest);
    const tenant = await createTenant({ ctx: c.get("ctx"), input });
    c.header("location", `/v1/tenants/${tenant.id}`);
    return c.json(tenant, 201);
  });
}
