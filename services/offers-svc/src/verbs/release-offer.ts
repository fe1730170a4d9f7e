import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { releaseOfferChanges } from "../marketplace/change-sets.ts";
import { getOffer } from "./get-offer.ts";
import { type OfferChangeArgs, submitOfferChange } from "./submit-change.ts";

/**
 * Releases a draft (ReleaseOffer). A released (or expired) offer is refused at once: AWS would
 * accept the change set and fail it later with a message that does not say so. What else a
 * release needs (buyers, an end date, pricing and legal terms) is AWS's rule, and a release that
 * lacks it fails asynchronously with AWS's codes, reported on the change set.
 */
export function releaseOffer(args: OfferChangeArgs): Promise<ChangeHandle> {
  return submitOfferChange(args, "release", async () => {
    const { state } = await getOffer({ ctx: args.ctx, offerId: args.offerId });
    if (state !== "draft") {
      throw new DomainError("conflict", "OFFER_ALREADY_RELEASED", `the offer is already released (${state})`, {
        extensions: { state },
      });
    }
    return releaseOfferChanges(args.offerId);
  });
}
