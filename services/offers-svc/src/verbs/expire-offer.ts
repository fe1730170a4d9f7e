import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import type { ServiceContext } from "../context.ts";
import { expireOfferChanges } from "../marketplace/change-sets.ts";
import { submitChange } from "./submit-change.ts";

/**
 * Expires a released offer: AWS has no ExpireOffer, so the availability end date is set to
 * yesterday (UTC). Existing agreements are not affected (AWS). A draft cannot be expired; AWS
 * fails that change and the change set reports it.
 */
export function expireOffer(args: {
  ctx: ServiceContext;
  offerId: string;
  idempotencyKey?: string | undefined;
}): Promise<ChangeHandle> {
  const { ctx, offerId, idempotencyKey } = args;
  return submitChange(ctx, {
    action: "expire",
    offerId,
    input: {},
    changes: expireOfferChanges(offerId, ctx.deps.clock().getTime()),
    idempotencyKey,
  });
}
