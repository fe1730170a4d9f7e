import { CONNECTOR_PROBLEMS, MARKETPLACE, marketplaceAccessOf } from "../access.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import { AgreementList, ListAgreementsQuery } from "./agreements.ts";
import { OfferChange, OfferHistory, OfferHistoryQuery } from "./changes.ts";
import { AgreementPath, ChangePath, MarketplacePath, OfferPath } from "./common.ts";
import { SellerCurrencies } from "./currencies.ts";
import {
  CloneOfferRequest,
  CreateOfferRequest,
  ReplacementOfferRequest,
  UpdateOfferRequest,
} from "./offer-requests.ts";
import { ChangeHandle, ListOffersQuery, Offer, OfferList } from "./offers.ts";

/**
 * offers-svc: private offers, their change sets, purchase agreements and seller currencies of a
 * connected tenant. Members (and read keys) read; admins (and write keys) change. Every mutation
 * answers 202 with the change set AWS applies, idempotent per `Idempotency-Key` header (declared
 * per route: `idempotencyKey`, which the OpenAPI document and the handlers read).
 */
const { read, write } = marketplaceAccessOf("offers-svc");

/** What any call into the seller's account can answer: the connector's refusals, and AWS refusing. */
const seller = [...CONNECTOR_PROBLEMS, "MARKETPLACE_VALIDATION_FAILED"] as const;
/** What submitting a change set can answer besides. */
const change = [...seller, "OFFER_CHANGE_IN_PROGRESS", "MARKETPLACE_CONFLICT", "MARKETPLACE_REFUSED"] as const;

export const offersRoutes = [
  defineRoute({
    id: "offers.list",
    method: "GET",
    path: `${MARKETPLACE}/offers`,
    ...read,
    summary: "The seller's offers (filter by state, product, visibility; cursor pagination)",
    params: MarketplacePath,
    query: ListOffersQuery,
    problems: seller,
    responses: { 200: OfferList },
  }),
  defineRoute({
    id: "offers.create",
    method: "POST",
    path: `${MARKETPLACE}/offers`,
    ...write,
    summary: "Create a private offer in one change set (and release it with release: true)",
    idempotencyKey: { withoutKey: "Without a key, a retried create submits another change set: a second offer." },
    params: MarketplacePath,
    body: CreateOfferRequest,
    problems: change,
    responses: { 202: ChangeHandle },
  }),
  defineRoute({
    id: "offers.get",
    method: "GET",
    path: `${MARKETPLACE}/offers/{offer_id}`,
    ...read,
    summary: "An offer as its seller reads it: buyers, pricing, schedule, legal and validity terms, dates",
    params: OfferPath,
    problems: seller,
    responses: { 200: Offer },
  }),
  defineRoute({
    id: "offers.clone",
    method: "POST",
    path: `${MARKETPLACE}/offers/{offer_id}/clone`,
    ...write,
    summary: "A new draft from an offer's terms with overrides; optionally expire the original",
    idempotencyKey: { withoutKey: "Without a key, a retried clone submits another change set: a second copy." },
    params: OfferPath,
    body: CloneOfferRequest,
    problems: [...change, "OFFER_NOT_CLONEABLE", "OFFER_NOT_RELEASED"],
    responses: { 202: ChangeHandle },
  }),
  defineRoute({
    id: "offers.update",
    method: "PATCH",
    path: `${MARKETPLACE}/offers/{offer_id}`,
    ...write,
    summary:
      "Change a draft offer's details (information, buyers, pricing, schedule, legal terms, dates) in one change set",
    idempotencyKey: {
      withoutKey: "Without a key, a retried update submits the same changes again in another change set.",
    },
    params: OfferPath,
    body: UpdateOfferRequest,
    problems: [...change, "OFFER_NOT_DRAFT"],
    responses: { 202: ChangeHandle },
  }),
  defineRoute({
    id: "offers.changes.list",
    method: "GET",
    path: `${MARKETPLACE}/offers/{offer_id}/changes`,
    ...read,
    summary: "The offer's history: the change sets Flowstate submitted for it, newest first",
    params: OfferPath,
    query: OfferHistoryQuery,
    problems: ["INVALID_CURSOR"],
    responses: { 200: OfferHistory },
  }),
  defineRoute({
    id: "offers.release",
    method: "POST",
    path: `${MARKETPLACE}/offers/{offer_id}/release`,
    ...write,
    summary: "Release a draft offer to its buyers (a released one is refused at once)",
    idempotencyKey: {
      withoutKey: "Without a key, a retry after the release is refused as a release of a released offer.",
    },
    params: OfferPath,
    problems: [...change, "OFFER_ALREADY_RELEASED"],
    responses: { 202: ChangeHandle },
  }),
  defineRoute({
    id: "offers.expire",
    method: "POST",
    path: `${MARKETPLACE}/offers/{offer_id}/expire`,
    ...write,
    summary: "Expire a released offer (its availability end date becomes yesterday; a draft is refused at once)",
    idempotencyKey: {
      withoutKey: "Without a key, a retry submits another change set that moves the end date again.",
    },
    params: OfferPath,
    problems: [...change, "OFFER_NOT_RELEASED"],
    responses: { 202: ChangeHandle },
  }),
  defineRoute({
    id: "offers.changes.get",
    method: "GET",
    path: `${MARKETPLACE}/changes/{change_set_id}`,
    ...read,
    summary: "A submitted change set: status, each change's errors, the offer",
    params: ChangePath,
    responses: { 200: OfferChange },
  }),
  defineRoute({
    id: "agreements.list",
    method: "GET",
    path: `${MARKETPLACE}/agreements`,
    ...read,
    summary:
      "Purchase agreements the seller proposed (status, offer, product, buyer, dates), as last read from AWS (synced_at)",
    params: MarketplacePath,
    query: ListAgreementsQuery,
    problems: [...seller, "INVALID_CURSOR"],
    responses: { 200: AgreementList },
  }),
  defineRoute({
    id: "agreements.replacement_offers.create",
    method: "POST",
    path: `${MARKETPLACE}/agreements/{agreement_id}/replacement-offers`,
    ...write,
    summary:
      "Replace an active agreement's terms: an agreement-based offer to its buyer (AWS CreateReplacementOffer), when the connector role allows it",
    idempotencyKey: {
      withoutKey: "Without a key, a retried request submits another change set: a second replacement offer.",
    },
    params: AgreementPath,
    body: ReplacementOfferRequest,
    problems: [...change, "CONNECTOR_PERMISSION_MISSING", "AGREEMENT_NOT_ACTIVE"],
    responses: { 202: ChangeHandle },
  }),
  defineRoute({
    id: "seller.currencies.get",
    method: "GET",
    path: `${MARKETPLACE}/seller/currencies`,
    ...read,
    summary:
      "Currencies the seller can be paid out in: undetermined (AWS documents no way to read them), with the reason",
    params: MarketplacePath,
    problems: seller,
    responses: { 200: SellerCurrencies },
  }),
] as const satisfies readonly RouteSpec[];
