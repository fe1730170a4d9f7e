import { AgreementId } from "@flowstate/contracts/rest/offers/common";
import { ReplacementOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/** `create_replacement_offer(agreement_id, …)` (issue 25): POST agreements/{agreement_id}/replacement-offers. */
export const createReplacementOffer = defineTool({
  name: "create_replacement_offer",
  description:
    "Offers new terms to the buyer of an active purchase agreement (AWS agreement-based offer; the buyer's " +
    "acceptance replaces the agreement); product and buyer are the agreement's. Needs the connector role to allow " +
    "DescribeAgreement and GetAgreementTerms, else CONNECTOR_PERMISSION_MISSING names what to add. Returns a change " +
    "set at once: poll get_offer_change_status.",
  route: routeIn(offersRoutes, "agreements.replacement_offers.create"),
  scope: "marketplace:write",
  person: false,
  input: {
    agreement_id: AgreementId.describe("the agreement to replace, from list_purchase_agreements"),
    ...ReplacementOfferRequest.shape,
    idempotency_key: idempotencyKey,
  },
  outlined: {
    pricing: "as create_private_offer's pricing",
    payment_schedule: "as create_private_offer's payment_schedule",
    legal_terms: "as create_private_offer's legal_terms",
    validity: "as create_private_offer's validity",
  },
  annotations: {
    title: "Replace an agreement's terms",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  request: ({ agreement_id, idempotency_key, ...body }, tenantId) => ({
    path: tenantPath(
      tenantId,
      `/integrations/marketplace/agreements/${encodeURIComponent(agreement_id)}/replacement-offers`,
    ),
    body,
    headers: idempotencyHeader(idempotency_key),
  }),
});
