import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { UpdateFeatureFlagsRequest } from "@flowstate/contracts/rest/identity/tenants";
import { parseParams, readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { updateFeatures } from "../verbs/update-features.ts";

export function registerFeaturesUpdate(app: IdentityApp): void {
  app.put("/v1/tenants/:id/features", async (c) => {
    const { id } = parseParams(c, TenantPath);
    const input = await readJson(c, UpdateFeatureFlagsRequest);
    return c.json(await updateFeatures({ ctx: c.get("ctx"), tenantId: id, input }), 200);
  });
}
