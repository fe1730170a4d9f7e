import { z } from "zod";
import { Sub, TenantId, TenantRole } from "../../ids.ts";
import { TenantName, Timestamp } from "./common.ts";

/** A tenant as one of its members sees it; `role` is the caller's own role in it. */
export const Tenant = z.object({
  id: TenantId,
  name: z.string(),
  owner_sub: Sub,
  role: TenantRole,
  created_at: Timestamp,
});
export type Tenant = z.infer<typeof Tenant>;

export const TenantList = z.object({ tenants: z.array(Tenant) });
export type TenantList = z.infer<typeof TenantList>;

export const CreateTenantRequest = z.strictObject({ name: TenantName });
export type CreateTenantRequest = z.infer<typeof CreateTenantRequest>;
export const RenameTenantRequest = z.strictObject({ name: TenantName });
export type RenameTenantRequest = z.infer<typeof RenameTenantRequest>;

/**
 * Asks a member to become the owner (an invitation of kind `ownership`): nothing changes until they
 * accept; then they own the tenant and the previous owner becomes an admin.
 */
export const OwnershipTransferRequest = z.strictObject({ new_owner_sub: Sub });
export type OwnershipTransferRequest = z.infer<typeof OwnershipTransferRequest>;

/** The tenant flags; `marketplace_offers` gates the offers API (403 FEATURE_DISABLED when off). */
export const FeatureFlags = z.object({ marketplace_offers: z.boolean() });
export type FeatureFlags = z.infer<typeof FeatureFlags>;
export const FEATURE_DEFAULTS: FeatureFlags = { marketplace_offers: false };

export const UpdateFeatureFlagsRequest = FeatureFlags.partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one flag" });
export type UpdateFeatureFlagsRequest = z.infer<typeof UpdateFeatureFlagsRequest>;
