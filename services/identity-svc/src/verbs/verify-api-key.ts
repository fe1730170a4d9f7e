import { keyRole } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { ApiKeyState } from "@flowstate/contracts/internal/identity";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { type ServiceContext, table } from "../context.ts";
import { keyIdOf } from "../crypto/api-key-secret.ts";
import { sameDigest, sha256 } from "../crypto/secret-token.ts";

type Row = {
  key_id: string;
  tenant_id: string;
  scope: "read" | "write";
  secret_hash: string;
  created_by: string;
  revoked_at: Date | null;
  tenant_status: string;
  creator_status: string;
  creator_disabled: boolean;
  creator_role: TenantRole | null;
};

/**
 * Resolves a presented API key. The key names its own id, so this is one primary-key join plus a
 * constant-time hash comparison. Not ours, or a wrong secret for a real id: 404 alike. A key works
 * only while it is unrevoked, its tenant is active, and its creator is an active account that is
 * still an admin or owner of the tenant (`keyRole`, the platform's rule: a key must not outlive
 * its creator's authority).
 */
export async function verifyApiKey({ ctx, key }: { ctx: ServiceContext; key: string }): Promise<ApiKeyState> {
  const keyId = keyIdOf(key);
  if (!keyId) throw notFound("API key");
  const rows = await ctx.em.execute<Row[]>(
    `SELECT k.key_id, k.tenant_id, k.scope, k.secret_hash, k.created_by, k.revoked_at,
            t.status AS tenant_status, u.status AS creator_status, u.disabled AS creator_disabled, m.role AS creator_role
       FROM ${table(ctx, "api_key")} k
       JOIN ${table(ctx, "tenant")} t ON t.id = k.tenant_id
       JOIN ${table(ctx, "app_user")} u ON u.sub = k.created_by
       LEFT JOIN ${table(ctx, "membership")} m ON m.tenant_id = k.tenant_id AND m.sub = k.created_by
      WHERE k.key_id = ?`,
    [keyId],
  );
  const row = rows[0];
  if (!row || !sameDigest(row.secret_hash, sha256(key))) throw notFound("API key");
  const active =
    row.revoked_at === null &&
    row.tenant_status === "active" &&
    row.creator_status === "active" &&
    !row.creator_disabled &&
    keyRole(row.scope, row.creator_role) !== null;
  return { key_id: row.key_id, tenant_id: row.tenant_id, scope: row.scope, created_by: row.created_by, active };
}
