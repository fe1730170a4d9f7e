import { ApiError } from "../http/api-error.ts";
import { marketplaceArn } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { changeSetFromQuery } from "./change-set-lookup.ts";
import { finish } from "./run-change-set.ts";

/**
 * CancelChangeSet (`PATCH /CancelChangeSet?catalog=..&changeSetId=..`): only while PREPARING
 * ("must be sent before the status ... changes to APPLYING"); later it is in use (423).
 */
export async function cancelChangeSet(call: CallContext) {
  const cs = await changeSetFromQuery(call, "aws-marketplace:CancelChangeSet");
  if (cs.status !== "PREPARING") {
    throw new ApiError(
      423,
      "ResourceInUseException",
      `Change set ${cs.id} is ${cs.status} and can no longer be cancelled.`,
    );
  }
  finish(call.seller, cs, "CANCELLED");
  return { ChangeSetId: cs.id, ChangeSetArn: marketplaceArn(call.seller.account, "ChangeSet", cs.id) };
}
