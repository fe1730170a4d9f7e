import { ApiError } from "../http/api-error.ts";
import { authorize } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { paginate, queryFingerprint } from "../http/paginate.ts";
import { parseJsonBody } from "../http/validate.ts";
import { AGREEMENT_STATUSES, type Agreement } from "../seller/types.ts";
import { agreementSummary } from "./agreement-view.ts";
import { checkCombination } from "./filter-combinations.ts";
import { type FilterName, parseSearchInput } from "./search-input.ts";

const STATUSES = new Set<string>(AGREEMENT_STATUSES);
const RESOURCE_TYPES = new Set([
  "AmiProduct",
  "ContainerProduct",
  "SaaSProduct",
  "ProfessionalServicesProduct",
  "MachineLearningProduct",
]);

function timeFilter(filters: Map<FilterName, string>, name: FilterName): number | undefined {
  const v = filters.get(name);
  if (v === undefined) return undefined;
  const t = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : Date.parse(v);
  if (Number.isNaN(t)) {
    throw new ApiError(400, "ValidationException", `${name} must be a date-time.`, { reason: "INVALID_FILTER_VALUES" });
  }
  return t;
}

function matches(a: Agreement, f: Map<FilterName, string>, before?: number, after?: number): boolean {
  const eq = (name: FilterName, value: string | undefined) => !f.has(name) || f.get(name) === value;
  return (
    eq("ResourceIdentifier", a.productId) &&
    eq("ResourceType", "SaaSProduct") &&
    eq("AcceptorAccountId", a.acceptorAccountId) &&
    eq("OfferId", a.offerId) &&
    eq("OfferSetId", a.offerSetId) &&
    eq("Status", a.status) &&
    (before === undefined || (a.endTime !== null && a.endTime < before)) &&
    (after === undefined || (a.endTime !== null && a.endTime > after))
  );
}

/**
 * SearchAgreements: validates the filters and their documented combinations, then checks
 * `aws-marketplace:SearchAgreements` with the request's `aws-marketplace:PartyType` and
 * `aws-marketplace:AgreementType` as condition keys. The seller proposes every seeded agreement and
 * accepts none.
 */
export async function searchAgreements(call: CallContext) {
  const input = parseSearchInput(parseJsonBody(call.body, 400, { reason: "OTHER" }));
  const party = checkCombination(input.filters);
  const status = input.filters.get("Status");
  if (status !== undefined && !STATUSES.has(status)) {
    throw new ApiError(400, "ValidationException", `Status ${status} is not valid.`, {
      reason: "INVALID_FILTER_VALUES",
    });
  }
  const resourceType = input.filters.get("ResourceType");
  if (resourceType !== undefined && !RESOURCE_TYPES.has(resourceType)) {
    throw new ApiError(400, "ValidationException", `ResourceType ${resourceType} is not valid.`, {
      reason: "INVALID_FILTER_VALUES",
    });
  }
  const before = timeFilter(input.filters, "BeforeEndTime");
  const after = timeFilter(input.filters, "AfterEndTime");
  await authorize(call.deps, call.caller, "aws-marketplace:SearchAgreements", "*", {
    "aws-marketplace:PartyType": [party],
    "aws-marketplace:AgreementType": [input.filters.get("AgreementType") as string],
  });

  const mine = party === "Proposer" ? call.seller.agreements : [];
  const dir = input.sortOrder === "ASCENDING" ? 1 : -1;
  // Pay-as-you-go agreements have no end time; they sort as if they ended last.
  const end = (a: Agreement) => a.endTime ?? Number.MAX_SAFE_INTEGER;
  const found = mine
    .filter((a) => matches(a, input.filters, before, after))
    .sort((a, b) => dir * (end(a) - end(b)) || (a.id < b.id ? -1 : 1));
  const { page, nextToken } = paginate(found, {
    token: input.nextToken,
    max: input.maxResults,
    fingerprint: queryFingerprint(input.raw, ["nextToken", "maxResults"]),
    onInvalid: () => {
      throw new ApiError(400, "ValidationException", "The nextToken is not valid.", { reason: "INVALID_NEXT_TOKEN" });
    },
  });
  return {
    agreementViewSummaries: page.map((a) => agreementSummary(call.seller, a)),
    ...(nextToken ? { nextToken } : {}),
  };
}
