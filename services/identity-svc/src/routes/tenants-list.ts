import type { IdentityApp } from "../http/env.ts";
import { listTenants } from "../verbs/list-tenants.ts";

export function registerTenantList(app: IdentityApp): void {
  app.get("/v1/tenants", async (c) => c.json(await listTenants({ ctx: c.get("ctx") }), 200));
}
