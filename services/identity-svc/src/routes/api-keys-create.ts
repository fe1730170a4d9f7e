import { CreateApiKeyRequest } from "@flowstate/contracts/rest/identity/api-keys";
import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams, readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { createApiKey } from "../verbs/create-api-key.ts";

export function registerApiKeyCreate(app: IdentityApp): void {
  app.post("/v1/tenants/:id/api-keys", async (c) => {
    const { id } = parseParams(c, TenantPath);
    const input = await readJson(c, CreateApiKeyRequest);
    c.header("cache-control", "no-store"); // the answer carries the only copy of the secret
    return c.json(await createApiKey({ ctx: c.get("ctx"), tenantId: id, input }), 201);
  });
}
