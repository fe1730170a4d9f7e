import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { getFeatures } from "../verbs/get-features.ts";

export function registerFeaturesGet(app: IdentityApp): void {
  app.get("/v1/tenants/:id/features", async (c) => {
    const { id } = parseParams(c, TenantPath);
    return c.json(await getFeatures({ ctx: c.get("ctx"), tenantId: id }), 200);
  });
}
