import { type CloneOfferRequest, CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import type { ChangeHandle, Offer } from "@flowstate/contracts/rest/offers/offers";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { createOfferChanges, expireOfferChanges } from "../marketplace/change-sets.ts";
import { fieldErrors } from "./call-seller.ts";
import { checkOfferAgainstSeller } from "./check-offer.ts";
import { getOffer } from "./get-offer.ts";
import { submitOnce } from "./submit-change.ts";

/** The original's typed fields with the request's overrides on top (`payment_schedule: null` drops it). */
function merged(original: Offer, o: CloneOfferRequest): Record<string, unknown> {
  const schedule = o.payment_schedule === null ? undefined : (o.payment_schedule ?? original.payment_schedule);
  return {
    product_id: original.product_id,
    name: o.name ?? original.name,
    description: o.description ?? original.description,
    buyer_accounts: o.buyer_accounts ?? (original.buyer_accounts.length ? original.buyer_accounts : undefined),
    pricing: o.pricing ?? original.pricing,
    ...(schedule ? { payment_schedule: schedule } : {}),
    legal_terms: o.legal_terms ?? original.legal_terms,
    validity: o.validity ?? original.validity,
    availability_end_date: o.availability_end_date ?? original.availability_end_date,
    release: o.release,
  };
}

/**
 * There is no clone in the Catalog API (AWS's console pre-fills a new offer from the old one):
 * the original is read, its terms replayed into a new offer with the overrides, all checked like
 * a create, and submitted as one change set; with `expire_original` that change set also expires
 * the original (UpdateAvailability with a past date). An original with terms Flowstate does not
 * type is refused rather than cloned without them.
 */
export async function cloneOffer(args: {
  ctx: ServiceContext;
  offerId: string;
  input: CloneOfferRequest;
  idempotencyKey?: string | undefined;
}): Promise<ChangeHandle> {
  const { ctx, offerId, input, idempotencyKey } = args;
  return submitOnce(ctx, { action: "clone", offerId, input, idempotencyKey }, async () => {
    const original = await getOffer({ ctx, offerId });
    if (original.other_terms.length) {
      throw new DomainError(
        "unprocessable",
        "OFFER_NOT_CLONEABLE",
        `the offer has terms a clone cannot carry over (${original.other_terms.join(", ")}); create the new offer instead`,
        { extensions: { terms: original.other_terms } },
      );
    }
    if (input.expire_original && original.state !== "released") {
      throw new DomainError(
        "conflict",
        "OFFER_NOT_RELEASED",
        `only a released offer can be expired; it is ${original.state === "draft" ? "a draft" : "expired already"}`,
        { extensions: { field: "expire_original", state: original.state } },
      );
    }
    const parsed = CreateOfferRequest.safeParse(merged(original, input));
    if (!parsed.success) throw fieldErrors(parsed.error.issues);
    const currencyNotChecked = await checkOfferAgainstSeller(ctx, parsed.data);
    const changes = [
      ...createOfferChanges(parsed.data),
      ...(input.expire_original ? expireOfferChanges(offerId, ctx.deps.clock().getTime()) : []),
    ];
    return { changes, currencyNotChecked };
  });
}
