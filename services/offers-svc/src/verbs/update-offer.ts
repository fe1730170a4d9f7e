import { offerRuleIssues, type UpdateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import type { ChangeHandle, Offer } from "@flowstate/contracts/rest/offers/offers";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { updateOfferChanges } from "../marketplace/change-sets.ts";
import { fieldErrors } from "./call-seller.ts";
import { checkOfferAgainstSeller } from "./check-offer.ts";
import { getOffer } from "./get-offer.ts";
import { submitOnce } from "./submit-change.ts";

/**
 * A draft's details changed before release, in one change set of Update* changes on the offer
 * (the connector policy allows StartChangeSet on Offer). Only a draft: after release AWS accepts
 * little (and fails the rest asynchronously), so a released or expired offer is refused at once
 * (409 OFFER_NOT_DRAFT). The create rules are checked for the fields given, read together with the
 * draft's others; a new pricing is checked against the product and re-sends the draft's schedule
 * in the pricing's currency (one currency across an offer's terms; whether AWS takes a change of
 * currency on a scheduled draft is AWS's to decide). The change shows in the offer's history.
 */
export function updateOffer(args: {
  ctx: ServiceContext;
  offerId: string;
  input: UpdateOfferRequest;
  idempotencyKey?: string | undefined;
}): Promise<ChangeHandle> {
  const { ctx, offerId, input, idempotencyKey } = args;
  return submitOnce(ctx, { action: "update", offerId, input, idempotencyKey }, async () => {
    const draft = await getOffer({ ctx, offerId });
    if (draft.state !== "draft") {
      throw new DomainError("conflict", "OFFER_NOT_DRAFT", `only a draft can be changed; the offer is ${draft.state}`, {
        extensions: { state: draft.state },
      });
    }
    const merged = mergedDraft(draft, input);
    const given = new Set(Object.keys(input).filter((k) => input[k as keyof UpdateOfferRequest] !== undefined));
    const issues = offerRuleIssues(merged as never).filter((i) => given.has(String(i.path[0])));
    if (input.payment_schedule && !merged.pricing)
      issues.push({
        path: ["payment_schedule"],
        message: "the draft has no pricing yet: give pricing with the schedule",
      });
    if (issues.length) throw fieldErrors(issues);
    const pricing = input.pricing ?? (input.payment_schedule ? draft.pricing : undefined);
    const currencyNotChecked = pricing
      ? await checkOfferAgainstSeller(ctx, { product_id: draft.product_id, pricing })
      : undefined;
    const changes = updateOfferChanges(offerId, {
      ...input,
      // Name and description travel together (UpdateInformation), the draft's for the one not given.
      ...(input.name !== undefined || input.description !== undefined
        ? { name: merged.name, description: merged.description }
        : {}),
      // A new currency must reach the schedule too (one currency across an offer's terms).
      ...(input.pricing && !input.payment_schedule && merged.payment_schedule
        ? { payment_schedule: merged.payment_schedule }
        : {}),
      currency: draft.pricing?.currency,
    });
    return { changes, currencyNotChecked };
  });
}

/** The draft as it will read after the update: each given field replaces the draft's. */
function mergedDraft(draft: Offer, u: UpdateOfferRequest) {
  return {
    name: u.name ?? draft.name,
    description: u.description ?? draft.description,
    buyer_accounts: u.buyer_accounts ?? (draft.buyer_accounts.length ? draft.buyer_accounts : undefined),
    pricing: u.pricing ?? draft.pricing,
    payment_schedule: u.payment_schedule ?? draft.payment_schedule,
    legal_terms: u.legal_terms ?? draft.legal_terms,
    validity: u.validity ?? draft.validity,
    availability_end_date: u.availability_end_date ?? draft.availability_end_date,
    release: false,
  };
}
