import { createHash, randomUUID } from "node:crypto";
import { DecryptCommand, EncryptCommand, type KMSClient } from "@aws-sdk/client-kms";
import { LruCache } from "@flowstate/shared/cache/lru";

/**
 * External IDs are per-tenant secrets (decisions.md): generated here, stored only as KMS
 * ciphertext with the tenant id as encryption context (ciphertext copied onto another tenant's
 * row does not decrypt), and never logged. The opened value of each tenant is kept in memory with
 * the ciphertext's digest, so the hot status read costs no KMS call; a new ciphertext (after a
 * disconnect, possibly through another instance) does not match the digest and is opened again.
 */
export interface ExternalIdVault {
  /** A new external ID (UUIDv4) and its ciphertext. */
  generate(tenantId: string): Promise<{ externalId: string; sealed: Uint8Array }>;
  open(tenantId: string, sealed: Uint8Array): Promise<string>;
  /** Drops the tenant's opened value from memory (disconnect, tenant deleted). */
  forget(tenantId: string): void;
}

/**
 * The SHA-256 of a plaintext external ID: what the database's unique index holds (migration 0003).
 * The ID is a random UUIDv4, so the digest gives nothing to guess it from.
 */
export const externalIdDigest = (externalId: string): Buffer => createHash("sha256").update(externalId).digest();

const PURPOSE = "marketplace-external-id";
const context = (tenantId: string) => ({ tenant_id: tenantId, purpose: PURPOSE });

/**
 * @example
 * const vault = kmsVault(aws.data("kms"), config.DATA_KMS_KEY_ID);
 * const { externalId, sealed } = await vault.generate("tnt_…");
 */
export function kmsVault(kms: KMSClient, keyId: string, options: { cacheMax?: number } = {}): ExternalIdVault {
  const opened = new LruCache<{ digest: string; value: string }>(options.cacheMax ?? 50_000);
  const digestOf = (sealed: Uint8Array) => createHash("sha256").update(sealed).digest("base64url");

  return {
    async generate(tenantId) {
      const externalId = randomUUID();
      const out = await kms.send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(externalId),
          EncryptionContext: context(tenantId),
        }),
      );
      if (!out.CiphertextBlob) throw new Error("KMS returned no ciphertext");
      opened.set(tenantId, { digest: digestOf(out.CiphertextBlob), value: externalId });
      return { externalId, sealed: out.CiphertextBlob };
    },
    async open(tenantId, sealed) {
      const digest = digestOf(sealed);
      const hit = opened.get(tenantId);
      if (hit?.digest === digest) return hit.value;
      const out = await kms.send(
        new DecryptCommand({ CiphertextBlob: sealed, KeyId: keyId, EncryptionContext: context(tenantId) }),
      );
      if (!out.Plaintext) throw new Error("KMS returned no plaintext");
      const value = Buffer.from(out.Plaintext).toString();
      opened.set(tenantId, { digest, value });
      return value;
    },
    forget(tenantId) {
      opened.delete(tenantId);
    },
  };
}
