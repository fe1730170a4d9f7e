import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { releaseOfferChanges } from "../marketplace/change-sets.ts";
import { type OfferChangeArgs, submitOfferChange } from "./submit-change.ts";

/**
 * Releases a draft (ReleaseOffer). Nothing is checked here: what a release needs (buyers, an end
 * date, pricing and legal terms) is AWS's rule, and a release that lacks it fails asynchronously
 * with AWS's codes, reported on the change set.
 */
export function releaseOffer(args: OfferChangeArgs): Promise<ChangeHandle> {
  return submitOfferChange(args, "release", releaseOfferChanges(args.offerId));
}
