import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { expireOfferChanges } from "../marketplace/change-sets.ts";
import { getOffer } from "./get-offer.ts";
import { type OfferChangeArgs, submitOfferChange } from "./submit-change.ts";

/**
 * Expires a released offer: AWS has no ExpireOffer, so the availability end date is set to
 * yesterday (UTC). Existing agreements are not affected (AWS). A draft is refused at once: AWS
 * would accept the change set and fail it later with a misleading message.
 */
export function expireOffer(args: OfferChangeArgs): Promise<ChangeHandle> {
  return submitOfferChange(args, "expire", async () => {
    const { state } = await getOffer({ ctx: args.ctx, offerId: args.offerId });
    if (state === "draft") {
      throw new DomainError("conflict", "OFFER_NOT_RELEASED", "only a released offer can be expired; it is a draft", {
        extensions: { state },
      });
    }
    return expireOfferChanges(args.offerId, args.ctx.deps.clock().getTime());
  });
}
