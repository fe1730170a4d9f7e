import { ApiError } from "../http/api-error.ts";
import { authorize } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { paginate, queryFingerprint } from "../http/paginate.ts";
import { parseInput, parseJsonBody } from "../http/validate.ts";
import { requireCatalog } from "./catalog-name.ts";
import { checkFilterLimits, legacyFilters, offerMatches, productMatches } from "./entity-filters.ts";
import { offerSummary, productSummary, sellerSummary } from "./entity-views.ts";
import {
  KNOWN_ENTITY_TYPES,
  ListEntitiesInput,
  type OfferFilters,
  type SaaSProductFilters,
} from "./list-entities-input.ts";

type Summary = { EntityId: string; LastModifiedDate: string; Name?: string; [k: string]: unknown };

const sortKeys: Record<string, (s: Summary) => string> = {
  EntityId: (s) => s.EntityId,
  Name: (s) => s.Name ?? "",
  ProductTitle: (s) => s.Name ?? "",
  LastModifiedDate: (s) => s.LastModifiedDate,
  Visibility: (s) => String(s["Visibility"] ?? ""),
};
const offerKey = (field: string) => (s: Summary) => {
  const v = (s["OfferSummary"] as Record<string, unknown> | undefined)?.[field];
  return Array.isArray(v) ? v.join(",") : String(v ?? "");
};

function sortSummaries(list: Summary[], sortBy: string | undefined, order: string | undefined): Summary[] {
  const key = sortKeys[sortBy ?? "LastModifiedDate"] ?? offerKey(sortBy ?? "");
  const dir = order === "ASCENDING" || (!order && sortBy && sortBy !== "LastModifiedDate") ? 1 : -1;
  return list.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -dir : ka > kb ? dir : a.EntityId < b.EntityId ? -1 : 1;
  });
}

/**
 * ListEntities for SaaSProduct, Offer and Seller of the caller's seller account; other documented
 * entity types exist but the sandbox seller has none of them. Requires `aws-marketplace:ListEntities`
 * (no resource: `*`).
 */
export async function listEntities(call: CallContext) {
  const input = parseInput(ListEntitiesInput, parseJsonBody(call.body, 422), { status: 422 });
  requireCatalog(input.Catalog);
  if (!KNOWN_ENTITY_TYPES.has(input.EntityType)) {
    throw new ApiError(422, "ValidationException", `Unsupported EntityType: ${input.EntityType}`);
  }
  if (input.FilterList && input.EntityTypeFilters) {
    throw new ApiError(422, "ValidationException", "FilterList and EntityTypeFilters cannot be used together.");
  }
  const typed = input.EntityTypeFilters ?? {};
  const unionKey = Object.keys(typed)[0];
  if (unionKey && unionKey !== `${input.EntityType}Filters`) {
    throw new ApiError(422, "ValidationException", `${unionKey} cannot be used with EntityType ${input.EntityType}.`);
  }
  await authorize(call.deps, call.caller, "aws-marketplace:ListEntities", "*");

  const { seller } = call;
  const account = seller.account;
  let summaries: Summary[] = [];
  if (input.OwnershipType !== "SHARED") {
    if (input.EntityType === "Offer") {
      const f = (typed.OfferFilters ??
        (input.FilterList ? legacyFilters("Offer", input.FilterList) : {})) as OfferFilters;
      checkFilterLimits(f);
      summaries = [...seller.offers.values()].filter((o) => offerMatches(o, f)).map((o) => offerSummary(account, o));
    } else if (input.EntityType === "SaaSProduct") {
      const f = (typed.SaaSProductFilters ??
        (input.FilterList ? legacyFilters("SaaSProduct", input.FilterList) : {})) as SaaSProductFilters;
      checkFilterLimits(f);
      summaries = [...seller.products.values()]
        .filter((p) => productMatches(p, f))
        .map((p) => productSummary(account, p));
    } else if (input.EntityType === "Seller") {
      summaries = [sellerSummary(seller)];
    }
  }
  const sort = input.EntityTypeSort?.OfferSort ?? input.EntityTypeSort?.SaaSProductSort ?? input.Sort;
  const sorted = sortSummaries(summaries, sort?.SortBy, sort?.SortOrder);
  const { page, nextToken } = paginate(sorted, {
    token: input.NextToken,
    max: input.MaxResults ?? 20,
    fingerprint: queryFingerprint(input, ["NextToken", "MaxResults"]),
    onInvalid: () => {
      throw new ApiError(422, "ValidationException", "The NextToken is not valid.");
    },
  });
  return { EntitySummaryList: page, ...(nextToken ? { NextToken: nextToken } : {}) };
}
