import type { CallContext } from "../http/marketplace-call.ts";
import { changeSetFromQuery } from "./change-set-lookup.ts";
import { describeView } from "./change-set-views.ts";

/** DescribeChangeSet (`GET /DescribeChangeSet?catalog=..&changeSetId=..`). */
export async function describeChangeSet(call: CallContext) {
  const cs = await changeSetFromQuery(call, "aws-marketplace:DescribeChangeSet");
  return describeView(call.seller.account, cs);
}
