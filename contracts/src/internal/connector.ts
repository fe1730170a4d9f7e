import { z } from "zod";
import { TenantId } from "../ids.ts";
import { AccountId, ExternalId, RoleArn } from "../rest/connector/marketplace.ts";

/**
 * Internal contract of connector-svc for the services that call a tenant's seller account on its
 * own (offers-svc, mcp-gateway): what they need to assume the role themselves, over a signed HTTP
 * call, never through a queue or an event (the external ID is a secret; events are archived).
 *
 * GET /internal/v1/tenants/{id}/marketplace-connector → 200 SellerConnectorRecord, or 404 when the
 * tenant is not connected. The caller signs it with its `service` identity.
 */
export const SellerConnectorRecord = z.object({
  tenant_id: TenantId,
  role_arn: RoleArn,
  external_id: ExternalId,
  account_id: AccountId,
  connected_at: z.iso.datetime({ offset: true }),
});
export type SellerConnectorRecord = z.infer<typeof SellerConnectorRecord>;

export const sellerConnectorPath = (tenantId: string) => `/internal/v1/tenants/${tenantId}/marketplace-connector`;

/**
 * GET /internal/v1/marketplace-connectors on connector-svc: every connected tenant's seller account,
 * ids only (no role ARN, no external ID). partner-inbound rebuilds its account → tenant map from it
 * (ADR 0003; the only route it may call); offers-svc enrolls in its agreement watch the tenants
 * connected before it listened to ConnectorConnected (services/offers-svc/src/watch/backfill.ts).
 */
export const ConnectedAccounts = z.object({
  connectors: z.array(z.object({ tenant_id: TenantId, account_id: AccountId })),
});
export type ConnectedAccounts = z.infer<typeof ConnectedAccounts>;

export const connectedAccountsPath = "/internal/v1/marketplace-connectors";
