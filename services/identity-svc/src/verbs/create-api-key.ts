import type { CreateApiKeyRequest, CreatedApiKey } from "@flowstate/contracts/rest/identity/api-keys";
import { newId } from "@flowstate/shared/ids/new-id";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { newApiKeySecret } from "../crypto/api-key-secret.ts";
import { sha256 } from "../crypto/secret-token.ts";
import { ApiKey } from "../db/entities.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { toApiKeyView } from "./list-api-keys.ts";

/** Creates a tenant API key (admin or owner). The secret is in this answer only; we keep its hash. */
export async function createApiKey({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: CreateApiKeyRequest;
}): Promise<CreatedApiKey> {
  const keyId = newId("key");
  const { secret } = newApiKeySecret(keyId);
  const key = await inTransaction(ctx, async (em) => {
    const { sub } = await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    const row = em.create(ApiKey, {
      key_id: keyId,
      tenant_id: tenantId,
      name: input.name,
      scope: input.scope,
      secret_hash: sha256(secret),
      created_by: sub,
      created_at: now(ctx),
      revoked_at: null,
      revoked_reason: null,
    });
    emit(
      ctx,
      em,
      "ApiKeyCreated.v1",
      { tenant_id: tenantId, key_id: keyId, scope: input.scope },
      { tenant_id: tenantId, subject: sub }, // about its creator, like its revocation
    );
    return row;
  });
  return { ...toApiKeyView(key), secret };
}
