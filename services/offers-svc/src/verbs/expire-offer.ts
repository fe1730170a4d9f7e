import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { expireOfferChanges } from "../marketplace/change-sets.ts";
import { type OfferChangeArgs, submitOfferChange } from "./submit-change.ts";

/**
 * Expires a released offer: AWS has no ExpireOffer, so the availability end date is set to
 * yesterday (UTC). Existing agreements are not affected (AWS). A draft cannot be expired; AWS
 * fails that change and the change set reports it.
 */
export function expireOffer(args: OfferChangeArgs): Promise<ChangeHandle> {
  return submitOfferChange(args, "expire", expireOfferChanges(args.offerId, args.ctx.deps.clock().getTime()));
}
