import type { Invalidation } from "@flowstate/contracts/internal/identity";
import type { EntityManager } from "@mikro-orm/postgresql";
import { emit, now, type ServiceContext } from "../../context.ts";
import { ApiKey } from "../../db/entities.ts";

export type KeyRevokeReason =
  | "revoked"
  | "creator_removed"
  | "creator_demoted"
  | "creator_disabled"
  | "creator_deleted";

/** Marks one key revoked and announces it; returns the invalidation for after the commit. */
export function revokeKey(ctx: ServiceContext, em: EntityManager, key: ApiKey, reason: KeyRevokeReason): Invalidation {
  key.revoked_at = now(ctx);
  key.revoked_reason = reason;
  // About the key's creator (whose key stopped working); the actor is whoever caused the revocation.
  const meta = { tenant_id: key.tenant_id, subject: key.created_by };
  emit(ctx, em, "ApiKeyRevoked.v1", { tenant_id: key.tenant_id, key_id: key.key_id }, meta);
  emit(ctx, em, "AccessRevoked.v1", { scope: "api_key", key_id: key.key_id, tenant_id: key.tenant_id }, meta);
  return { scope: "api_key", key_id: key.key_id, tenant_id: key.tenant_id };
}

/**
 * Revokes the live keys a person created (in one tenant, or everywhere): a key must not outlive its
 * creator's authority (removed, demoted, disabled, deleted).
 */
export async function revokeKeysOf(
  ctx: ServiceContext,
  em: EntityManager,
  createdBy: string,
  reason: KeyRevokeReason,
  tenantId?: string,
): Promise<Invalidation[]> {
  const keys = await em.find(ApiKey, {
    created_by: createdBy,
    revoked_at: null,
    ...(tenantId ? { tenant_id: tenantId } : {}),
  });
  return keys.map((k) => revokeKey(ctx, em, k, reason));
}
