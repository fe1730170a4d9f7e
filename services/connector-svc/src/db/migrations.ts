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
  {
    name: "0002_one_tenant_per_seller_account",
    up: `
      -- A seller account is connected to one tenant at a time (against the confused deputy): a partner
      -- event or a catalog read for that account must belong to one tenant. The unique index is what
      -- holds under concurrent connects; connect maps its violation to 409 SELLER_ACCOUNT_IN_USE.
      -- Rows that already share an account (connected before this rule) keep the first connection;
      -- the later ones are exactly the connections the rule now refuses, so they are disconnected.
      UPDATE marketplace_connector c SET role_arn = NULL, account_id = NULL, connected_at = NULL, connected_by = NULL
        WHERE c.account_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM marketplace_connector o
           WHERE o.account_id = c.account_id
             AND (o.connected_at, o.tenant_id) < (c.connected_at, c.tenant_id)
        );
      CREATE UNIQUE INDEX marketplace_connector_account_id ON marketplace_connector (account_id);
    `,
  },
  {
    name: "0003_external_id_unique",
    up: `
      -- External IDs unique across tenants as a rule of the database, not only of randomness (§7
      -- check 27): the SHA-256 of the plaintext ID, unique. The ID is a random UUIDv4 (122 bits), so
      -- the digest cannot be turned back into it and the column holds no usable value either; it only
      -- lets the database refuse a second tenant with the same ID (a copied row, a broken generator).
      -- Rows from before this migration get theirs at their next status read (external-id.ts).
      ALTER TABLE marketplace_connector ADD COLUMN external_id_digest bytea;
      CREATE UNIQUE INDEX marketplace_connector_external_id_digest ON marketplace_connector (external_id_digest);
    `,
  },
  {
    name: "0004_attention",
    up: `
      -- What the last health check reported as needing the seller's attention (ConnectorAttentionNeeded,
      -- issue 25): its findings' fingerprint, NULL while healthy. An event goes out when it changes.
      ALTER TABLE marketplace_connector ADD COLUMN attention text;
    `,
  },
];
