import { notFound } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, type ServiceContext } from "../context.ts";
import { ApiKey } from "../db/entities.ts";
import { checkTenantAccess } from "./lib/authorize-tenant.ts";
import { revokeKey } from "./lib/revoke-keys-of.ts";

/** Revokes a key of the tenant (admin or owner). Revoking a revoked key is a no-op; another tenant's key is 404. */
export async function revokeApiKey({
  ctx,
  tenantId,
  keyId,
}: {
  ctx: ServiceContext;
  tenantId: string;
  keyId: string;
}): Promise<void> {
  await inTransaction(ctx, async (em) => {
    await checkTenantAccess(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    const key = await em.findOne(
      ApiKey,
      { key_id: keyId, tenant_id: tenantId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!key) throw notFound("API key");
    if (!key.revoked_at) revokeKey(ctx, em, key, "revoked");
  });
  ctx.invalidations.push({ scope: "api_key", key_id: keyId, tenant_id: tenantId });
}
