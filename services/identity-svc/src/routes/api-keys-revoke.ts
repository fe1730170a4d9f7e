import { ApiKeyPath } from "@flowstate/contracts/rest/identity/common";
import { parseParams } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { revokeApiKey } from "../verbs/revoke-api-key.ts";

export function registerApiKeyRevoke(app: IdentityApp): void {
  app.delete("/v1/tenants/:id/api-keys/:key_id", async (c) => {
    const { id, key_id } = parseParams(c, ApiKeyPath);
    await revokeApiKey({ ctx: c.get("ctx"), tenantId: id, keyId: key_id });
    return c.body(null, 204);
  });
}
