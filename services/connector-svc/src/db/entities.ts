import { defineEntity, type InferEntity, p } from "@mikro-orm/postgresql";

/**
 * The connector row (columns in migrations.ts). Reads and writes go through hand-written SQL in
 * `connector-rows.ts` (a keyed row, an insert that must not race); the entity keeps MikroORM's
 * metadata of the schema complete.
 */
export const MarketplaceConnector = defineEntity({
  name: "MarketplaceConnector",
  tableName: "marketplace_connector",
  properties: {
    tenant_id: p.string().primary(),
    external_id_enc: p.blob().hidden(),
    external_id_created_at: p.datetime(),
    external_id_digest: p.blob().nullable().hidden(),
    role_arn: p.string().nullable(),
    account_id: p.string().nullable(),
    connected_at: p.datetime().nullable(),
    connected_by: p.string().nullable(),
  },
});
export type MarketplaceConnector = InferEntity<typeof MarketplaceConnector>;

export const entities = [MarketplaceConnector];
