import { z } from "zod";
import { AwsAccountId } from "../events/partner.ts";
import { TenantId } from "../ids.ts";

/**
 * GET /internal/v1/marketplace-connectors on connector-svc: every connected tenant's seller account
 * (service callers only). partner-inbound rebuilds its account → tenant map from it (ADR 0003).
 */
export const ConnectedAccounts = z.object({
  connectors: z.array(z.object({ tenant_id: TenantId, account_id: AwsAccountId })),
});
export type ConnectedAccounts = z.infer<typeof ConnectedAccounts>;
