import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import type { ServiceContext } from "../context.ts";
import { releaseOfferChanges } from "../marketplace/change-sets.ts";
import { submitChange } from "./submit-change.ts";

/**
 * Releases a draft (ReleaseOffer). Nothing is checked here: what a release needs (buyers, an end
 * date, pricing and legal terms) is AWS's rule, and a release that lacks it fails asynchronously
 * with AWS's codes, reported on the change set.
 */
export function releaseOffer(args: {
  ctx: ServiceContext;
  offerId: string;
  idempotencyKey?: string | undefined;
}): Promise<ChangeHandle> {
  const { ctx, offerId, idempotencyKey } = args;
  return submitChange(ctx, {
    action: "release",
    offerId,
    input: {},
    changes: releaseOfferChanges(offerId),
    idempotencyKey,
  });
}
