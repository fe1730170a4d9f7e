import { ApiError } from "../http/api-error.ts";
import type { FilterName } from "./search-input.ts";

// The combinations SearchAgreements' documentation enumerates (marketplace-agreement model);
// BeforeEndTime/AfterEndTime count as "EndTime". Every one includes AgreementType.
const PROPOSER = [
  "",
  "EndTime",
  "ResourceType",
  "ResourceType+EndTime",
  "ResourceType+Status",
  "ResourceType+Status+EndTime",
  "ResourceIdentifier",
  "ResourceIdentifier+EndTime",
  "ResourceIdentifier+Status",
  "ResourceIdentifier+Status+EndTime",
  ...["", "+EndTime", "+Status", "+Status+EndTime"].map((s) => `AcceptorAccountId${s}`),
  ...["", "+Status", "+EndTime", "+Status+EndTime"].flatMap((s) =>
    ["OfferId", "ResourceIdentifier", "ResourceType"].map((x) => `AcceptorAccountId+${x}${s}`),
  ),
  "Status",
  "Status+EndTime",
  ...["OfferId", "OfferSetId"].flatMap((x) => ["", "+EndTime", "+Status", "+Status+EndTime"].map((s) => `${x}${s}`)),
];
const ACCEPTOR = [
  "",
  "Status",
  "EndTime",
  "Status+EndTime",
  ...["ResourceIdentifier", "OfferId", "OfferSetId"].flatMap((x) =>
    ["", "+EndTime", "+Status", "+Status+EndTime"].map((s) => `${x}${s}`),
  ),
  "ResourceType",
  "ResourceType+EndTime",
];

const ORDER = ["AcceptorAccountId", "OfferId", "OfferSetId", "ResourceIdentifier", "ResourceType", "Status", "EndTime"];
const canonical = (names: string[]) =>
  [...new Set(names)].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join("+");
const allowed = {
  Proposer: new Set(PROPOSER.map((c) => canonical(c ? c.split("+") : []))),
  Acceptor: new Set(ACCEPTOR.map((c) => canonical(c ? c.split("+") : []))),
};

const fail = (reason: string, message: string): never => {
  throw new ApiError(400, "ValidationException", message, { reason });
};

/** Throws MISSING_PARTY_TYPE, INVALID_PARTY_TYPE, INVALID_AGREEMENT_TYPE or UNSUPPORTED_FILTERS. */
export function checkCombination(filters: Map<FilterName, string>): "Proposer" | "Acceptor" {
  const party = filters.get("PartyType");
  if (party === undefined) return fail("MISSING_PARTY_TYPE", "The PartyType filter is required.");
  if (party !== "Proposer" && party !== "Acceptor")
    return fail("INVALID_PARTY_TYPE", "PartyType must be Proposer or Acceptor.");
  const type = filters.get("AgreementType");
  if (type === undefined)
    return fail("UNSUPPORTED_FILTERS", "This combination of filters is not supported: AgreementType is required.");
  if (type !== "PurchaseAgreement") return fail("INVALID_AGREEMENT_TYPE", "AgreementType must be PurchaseAgreement.");
  const rest = [...filters.keys()]
    .filter((n) => n !== "PartyType" && n !== "AgreementType")
    .map((n) => (n === "BeforeEndTime" || n === "AfterEndTime" ? "EndTime" : n));
  if (!allowed[party].has(canonical(rest))) {
    fail(
      "UNSUPPORTED_FILTERS",
      `This combination of filters is not supported for PartyType ${party}: AgreementType+${canonical(rest)}.`,
    );
  }
  return party;
}
