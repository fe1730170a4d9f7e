import { ApiError } from "../http/api-error.ts";
import { authorize, marketplaceArn } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import type { ChangeSet } from "../seller/types.ts";
import { requireCatalog } from "./catalog-name.ts";

/**
 * The `?catalog=..&changeSetId=..` of DescribeChangeSet and CancelChangeSet: validated, authorized
 * on the change set's ARN for `action`, then looked up (404 when unknown).
 */
export async function changeSetFromQuery(call: CallContext, action: string): Promise<ChangeSet> {
  const catalog = call.query.get("catalog");
  const id = call.query.get("changeSetId");
  const missing = [!catalog && "catalog", !id && "changeSetId"].filter((m): m is string => !!m);
  if (missing.length) {
    throw new ApiError(
      422,
      "ValidationException",
      `${missing.length} validation error${missing.length === 1 ? "" : "s"} detected: ${missing.map((m) => `Value null at '${m}' failed to satisfy constraint: Member must not be null`).join("; ")}`,
    );
  }
  requireCatalog(catalog);
  if (!/^[\w-]{1,255}$/.test(id as string)) {
    throw new ApiError(
      422,
      "ValidationException",
      "1 validation error detected: Value at 'changeSetId' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\w\\-]+$",
    );
  }
  await authorize(call.deps, call.caller, action, marketplaceArn(call.seller.account, "ChangeSet", id as string));
  const cs = call.seller.changeSets.get(id as string);
  if (!cs) throw new ApiError(404, "ResourceNotFoundException", `Change set ${id} not found.`);
  return cs;
}
