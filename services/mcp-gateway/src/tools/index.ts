import { checkMarketplaceConnectorHealth } from "./check-marketplace-connector-health.ts";
import { connectMarketplaceConnector } from "./connect-marketplace-connector.ts";
import { deleteMyAccount } from "./delete-my-account.ts";
import { disconnectMarketplaceConnector } from "./disconnect-marketplace-connector.ts";
import { getMarketplaceConnectorStatus } from "./get-marketplace-connector-status.ts";
import { getMarketplaceOnboarding } from "./get-marketplace-onboarding.ts";
import { listMarketplaceProducts } from "./list-marketplace-products.ts";
import type { ToolSpec } from "./tool.ts";

/**
 * Every tool, in name order (tools/list answers in this order; the snapshot test pins it). A tool
 * is added when the service owning its route is in the registry; see README for the plan.
 */
export const tools: readonly ToolSpec[] = (
  [
    checkMarketplaceConnectorHealth,
    connectMarketplaceConnector,
    deleteMyAccount,
    disconnectMarketplaceConnector,
    getMarketplaceConnectorStatus,
    getMarketplaceOnboarding,
    listMarketplaceProducts,
  ] as ToolSpec[]
).sort((a, b) => a.name.localeCompare(b.name));
