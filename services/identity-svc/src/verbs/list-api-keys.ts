import type { ApiKeyList, ApiKey as ApiKeyView } from "@flowstate/contracts/rest/identity/api-keys";
import type { ServiceContext } from "../context.ts";
import { prefixOf } from "../crypto/api-key-secret.ts";
import type { ApiKey } from "../db/entities.ts";
import type { ApiKeyRow } from "../db/tenant-reads.ts";
import { tenantList } from "./lib/tenant-list.ts";

export const toApiKeyView = (k: ApiKey | ApiKeyRow): ApiKeyView => ({
  key_id: k.key_id,
  name: k.name,
  scope: k.scope,
  prefix: prefixOf(k.key_id),
  created_by: k.created_by,
  // new Date(): a prepared read's timestamps come as the driver returns them (ORM entities as Dates).
  created_at: new Date(k.created_at).toISOString(),
  revoked_at: k.revoked_at ? new Date(k.revoked_at).toISOString() : null,
});

/** The tenant's keys, revoked ones included (marked), newest first; never a secret or its hash. */
export async function listApiKeys({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<ApiKeyList> {
  const keys = await tenantList(ctx, ctx.deps.tenantReads.apiKeys, tenantId, { minRole: "admin", apiKey: false });
  return { api_keys: keys.map(toApiKeyView) };
}
