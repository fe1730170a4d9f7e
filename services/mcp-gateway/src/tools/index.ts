import { checkMarketplaceConnectorHealth } from "./check-marketplace-connector-health.ts";
import { clonePrivateOffer } from "./clone-private-offer.ts";
import { connectMarketplaceConnector } from "./connect-marketplace-connector.ts";
import { createNotificationEndpoint } from "./create-notification-endpoint.ts";
import { createPrivateOffer } from "./create-private-offer.ts";
import { createReplacementOffer } from "./create-replacement-offer.ts";
import { deleteMyAccount } from "./delete-my-account.ts";
import { deleteNotificationEndpoint } from "./delete-notification-endpoint.ts";
import { disconnectMarketplaceConnector } from "./disconnect-marketplace-connector.ts";
import { enableNotificationEndpoint } from "./enable-notification-endpoint.ts";
import { expirePrivateOffer } from "./expire-private-offer.ts";
import { exportMyData } from "./export-my-data.ts";
import { getMarketplaceConnectorStatus } from "./get-marketplace-connector-status.ts";
import { getMarketplaceOnboarding } from "./get-marketplace-onboarding.ts";
import { getMyExportStatus } from "./get-my-export-status.ts";
import { getOfferChangeStatus } from "./get-offer-change-status.ts";
import { getOfferHistory } from "./get-offer-history.ts";
import { getPrivateOffer } from "./get-private-offer.ts";
import { getSellerCurrencies } from "./get-seller-currencies.ts";
import { listMarketplaceProducts } from "./list-marketplace-products.ts";
import { listNotificationDeliveries } from "./list-notification-deliveries.ts";
import { listNotificationEndpoints } from "./list-notification-endpoints.ts";
import { listPrivateOffers } from "./list-private-offers.ts";
import { listPurchaseAgreements } from "./list-purchase-agreements.ts";
import { releasePrivateOffer } from "./release-private-offer.ts";
import { replayNotificationDelivery } from "./replay-notification-delivery.ts";
import { rotateNotificationEndpointSecret } from "./rotate-notification-endpoint-secret.ts";
import type { ToolSpec } from "./tool.ts";
import { updatePrivateOffer } from "./update-private-offer.ts";

/**
 * Every tool, in name order (tools/list answers in this order; the snapshot test pins it): one per
 * tool of interface.md 4.2 and decisions.md (MCP), and issue 25's notification endpoints (every
 * route of notify-svc's registry) and replacement offers, each a view of one registry route.
 */
export const tools: readonly ToolSpec[] = (
  [
    checkMarketplaceConnectorHealth,
    clonePrivateOffer,
    connectMarketplaceConnector,
    createPrivateOffer,
    createReplacementOffer,
    deleteMyAccount,
    disconnectMarketplaceConnector,
    expirePrivateOffer,
    exportMyData,
    getMarketplaceConnectorStatus,
    getMarketplaceOnboarding,
    getMyExportStatus,
    getOfferChangeStatus,
    getOfferHistory,
    getPrivateOffer,
    getSellerCurrencies,
    listMarketplaceProducts,
    listPrivateOffers,
    listPurchaseAgreements,
    releasePrivateOffer,
    updatePrivateOffer,
    createNotificationEndpoint,
    listNotificationDeliveries,
    listNotificationEndpoints,
    replayNotificationDelivery,
    deleteNotificationEndpoint,
    enableNotificationEndpoint,
    rotateNotificationEndpointSecret,
  ] as ToolSpec[]
).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
