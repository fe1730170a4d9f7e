import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { listApiKeys } from "../verbs/list-api-keys.ts";

export function registerApiKeyList(app: IdentityApp): void {
  app.get("/v1/tenants/:id/api-keys", async (c) => {
    const { id } = parseParams(c, TenantPath);
    return c.json(await listApiKeys({ ctx: c.get("ctx"), tenantId: id }), 200);
  });
}
