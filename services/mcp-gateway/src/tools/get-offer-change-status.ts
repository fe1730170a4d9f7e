import { ChangeSetId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_offer_change_status(change_set_id)` (decisions.md): GET changes/{change_set_id}. */
export const getOfferChangeStatus = defineTool({
  name: "get_offer_change_status",
  description:
    "Reads an offer change that create_private_offer, clone_private_offer, release_private_offer or expire_private_offer submitted: {change_set_id, action, status (preparing|applying|succeeded|failed|cancelled), offer_id, source_offer_id, submitted_at, completed_at, failure_code, changes: [{change_type, offer_id, errors: [{code, message}]}]}. " +
    "Flowstate follows the change in AWS on its own; this reads its last known state (no call into AWS), so poll it every few seconds until the status is succeeded, failed or cancelled. " +
    "failure_code SERVER_FAULT: AWS's side, submit again. Another tenant's or an unknown id is NOT_FOUND. Any member; needs the marketplace_offers feature.",
  route: routeIn(offersRoutes, "offers.changes.get"),
  scope: "marketplace:read",
  person: false,
  input: { change_set_id: ChangeSetId.describe("change_set_id of the offer tool's answer") },
  annotations: {
    title: "Offer change status",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: (args, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/changes/${encodeURIComponent(args.change_set_id)}`),
  }),
});
