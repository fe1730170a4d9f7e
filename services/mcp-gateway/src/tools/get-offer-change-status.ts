import { ChangeSetId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_offer_change_status(change_set_id)` (decisions.md): GET changes/{change_set_id}. */
export const getOfferChangeStatus = defineTool({
  name: "get_offer_change_status",
  description:
    "Reads an offer change that create, clone, update, release or expire_private_offer submitted, as Flowstate last saw it in " +
    "AWS: poll every few seconds until succeeded (offer_id: the offer), failed (the changes' errors say why) or " +
    "cancelled. failure_code SERVER_FAULT: submit again.",
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
