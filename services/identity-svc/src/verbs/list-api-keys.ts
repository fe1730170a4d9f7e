import type { ApiKeyList, ApiKey as ApiKeyView } from "@flowstate/contracts/rest/identity/api-keys";
import type { ServiceContext } from "../context.ts";
import { prefixOf } from "../crypto/api-key-secret.ts";
import { ApiKey } from "../db/entities.ts";
import { checkTenantAccess } from "./lib/authorize-tenant.ts";

export const toApiKeyView = (k: ApiKey): ApiKeyView => ({
  key_id: k.key_id,
  name: k.name,
  scope: k.scope,
  prefix: prefixOf(k.key_id),
  created_by: k.created_by,
  created_at: k.created_at.toISOString(),
  revoked_at: k.revoked_at ? k.revoked_at.toISOString() : null,
});

/** The tenant's keys, revoked ones included (marked), newest first; never a secret or its hash. */
export async function listApiKeys({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<ApiKeyList> {
  await checkTenantAccess(ctx, ctx.existingEm(), tenantId, { minRole: "admin", apiKey: false });
  const keys = await ctx.em.find(ApiKey, { tenant_id: tenantId }, { orderBy: { created_at: "desc", key_id: "asc" } });
  return { api_keys: keys.map(toApiKeyView) };
}
