import { z } from "zod";
import { ApiError } from "../http/api-error.ts";
import { authorize } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { paginate, queryFingerprint } from "../http/paginate.ts";
import { parseInput, parseJsonBody } from "../http/validate.ts";
import type { ChangeSet } from "../seller/types.ts";
import { requireCatalog } from "./catalog-name.ts";
import { summaryView } from "./change-set-views.ts";
import { FilterList, NextToken, SortOrder } from "./list-entities-input.ts";

const ListChangeSetsInput = z.looseObject({
  Catalog: z.string().min(1).max(64),
  FilterList: FilterList.optional(),
  Sort: z
    .object({
      SortBy: z.enum(["StartTime", "EndTime"]).optional(),
      SortOrder: SortOrder.optional(),
    })
    .optional(),
  MaxResults: z.number().int().min(1).max(20, "Member must have value less than or equal to 20").optional(),
  NextToken: NextToken.optional(),
});

const time = (v: string) => {
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new ApiError(422, "ValidationException", `${v} is not a date-time.`);
  return t;
};

// Filter names of the Catalog API's Filter type for change sets (API_Filter.html).
const FILTERS: Record<string, (cs: ChangeSet, values: string[]) => boolean> = {
  ChangeSetName: (cs, v) => v.includes(cs.name),
  Status: (cs, v) => v.includes(cs.status),
  EntityId: (cs, v) => cs.changes.some((c) => v.includes(c.EntityId)),
  BeforeStartTime: (cs, v) => cs.startTime <= time(v[0] as string),
  AfterStartTime: (cs, v) => cs.startTime >= time(v[0] as string),
  BeforeEndTime: (cs, v) => cs.endTime !== undefined && cs.endTime <= time(v[0] as string),
  AfterEndTime: (cs, v) => cs.endTime !== undefined && cs.endTime >= time(v[0] as string),
};

/** ListChangeSets: `aws-marketplace:ListChangeSets` on `*`, filters, sort by StartTime/EndTime, 20 per page at most. */
export async function listChangeSets(call: CallContext) {
  const input = parseInput(ListChangeSetsInput, parseJsonBody(call.body, 422), { status: 422 });
  requireCatalog(input.Catalog);
  for (const f of input.FilterList ?? []) {
    // Own keys only: `constructor` would find Object and filter nothing.
    if (!Object.hasOwn(FILTERS, f.Name))
      throw new ApiError(422, "ValidationException", `Filter name ${f.Name} is not supported for change sets.`);
  }
  await authorize(call.deps, call.caller, "aws-marketplace:ListChangeSets", "*");
  const found = [...call.seller.changeSets.values()].filter((cs) =>
    (input.FilterList ?? []).every((f) => FILTERS[f.Name]?.(cs, f.ValueList)),
  );
  const by = input.Sort?.SortBy ?? "StartTime";
  const dir = input.Sort?.SortOrder === "ASCENDING" ? 1 : -1;
  const key = (cs: ChangeSet) => (by === "EndTime" ? (cs.endTime ?? Number.MAX_SAFE_INTEGER) : cs.startTime);
  found.sort((a, b) => dir * (key(a) - key(b)) || (a.id < b.id ? -1 : 1));
  const { page, nextToken } = paginate(found, {
    token: input.NextToken,
    max: input.MaxResults ?? 20,
    fingerprint: queryFingerprint(input, ["NextToken", "MaxResults"]),
    onInvalid: () => {
      throw new ApiError(422, "ValidationException", "The NextToken is not valid.");
    },
  });
  return {
    ChangeSetSummaryList: page.map((cs) => summaryView(call.seller.account, cs)),
    ...(nextToken ? { NextToken: nextToken } : {}),
  };
}
