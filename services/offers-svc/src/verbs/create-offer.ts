import type { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import type { ServiceContext } from "../context.ts";
import { createOfferChanges } from "../marketplace/change-sets.ts";
import { checkOfferAgainstSeller } from "./check-offer.ts";
import { submitOnce } from "./submit-change.ts";

/** A private offer in one change set (released in the same one when `release` is true). */
export async function createOffer(args: {
  ctx: ServiceContext;
  input: CreateOfferRequest;
  idempotencyKey?: string | undefined;
}): Promise<ChangeHandle> {
  const { ctx, input, idempotencyKey } = args;
  return submitOnce(ctx, { action: "create", input, idempotencyKey }, async () => ({
    currencyNotChecked: await checkOfferAgainstSeller(ctx, input),
    changes: createOfferChanges(input),
  }));
}
