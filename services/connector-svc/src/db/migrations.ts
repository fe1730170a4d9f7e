import type { Migration } from "@flowstate/shared/db/migrate";

/** connector's schema. Never edit a shipped migration; add one. */
export const migrations: Migration[] = [
  {
    name: "0001_marketplace_connector",
    up: `
      -- One row per tenant from the first status read (the external ID) until disconnect. The
      -- external ID is stored only as KMS ciphertext bound to the tenant (encryption context), so
      -- a database dump holds no usable value and one tenant's ciphertext cannot be opened as another's.
      CREATE TABLE marketplace_connector (
        tenant_id text PRIMARY KEY,
        external_id_enc bytea NOT NULL,
        external_id_created_at timestamptz NOT NULL DEFAULT now(),
        role_arn text,
        account_id text,
        connected_at timestamptz,
        connected_by text,
        CONSTRAINT connected_together CHECK (
          (role_arn IS NULL) = (account_id IS NULL) AND (role_arn IS NULL) = (connected_at IS NULL)
        )
      );
    `,
  },
];
