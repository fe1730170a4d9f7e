import { z } from "zod";
import { ApiError } from "../http/api-error.ts";

const invalid = (reason: string, message: string, field?: string): never => {
  throw new ApiError(400, "ValidationException", message, {
    reason,
    ...(field ? { fields: [{ name: field, message }] } : {}),
  });
};

export const FILTER_NAMES = [
  "PartyType",
  "AgreementType",
  "ResourceIdentifier",
  "ResourceType",
  "AcceptorAccountId",
  "OfferId",
  "OfferSetId",
  "Status",
  "BeforeEndTime",
  "AfterEndTime",
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

const Input = z
  .object({
    catalog: z.unknown().optional(),
    filters: z.unknown().optional(),
    sort: z.unknown().optional(),
    maxResults: z.unknown().optional(),
    nextToken: z.unknown().optional(),
  })
  .loose();

export interface SearchInput {
  filters: Map<FilterName, string>;
  sortOrder: "ASCENDING" | "DESCENDING";
  maxResults: number;
  nextToken?: string | undefined;
  raw: Record<string, unknown>;
}

/**
 * Validates SearchAgreements' members one by one with the Agreement API's reason codes
 * (INVALID_CATALOG, INVALID_FILTER_NAME, INVALID_FILTER_VALUES, INVALID_SORT_BY, INVALID_MAX_RESULTS, ...).
 */
export function parseSearchInput(body: unknown): SearchInput {
  const parsed = Input.safeParse(body);
  if (!parsed.success) return invalid("OTHER", "The request body must be a JSON object.");
  const raw = parsed.data;
  if (raw.catalog !== undefined && raw.catalog !== "AWSMarketplace")
    invalid("INVALID_CATALOG", "Catalog must be AWSMarketplace.", "catalog");
  const maxResults = raw.maxResults ?? 50;
  if (typeof maxResults !== "number" || !Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) {
    invalid("INVALID_MAX_RESULTS", "maxResults must be an integer between 1 and 50.", "maxResults");
  }
  if (
    raw.nextToken !== undefined &&
    (typeof raw.nextToken !== "string" || !/^[a-zA-Z0-9+/=_-]{1,8192}$/.test(raw.nextToken))
  ) {
    invalid("INVALID_NEXT_TOKEN", "The nextToken is not valid.", "nextToken");
  }
  let sortOrder: "ASCENDING" | "DESCENDING" = "DESCENDING";
  if (raw.sort !== undefined) {
    const sort = raw.sort as { sortBy?: unknown; sortOrder?: unknown };
    if (typeof sort !== "object" || sort === null) return invalid("OTHER", "sort must be an object.", "sort");
    if (sort.sortBy !== undefined && sort.sortBy !== "EndTime")
      invalid("INVALID_SORT_BY", "Only EndTime is supported for sorting.", "sort.sortBy");
    if (sort.sortOrder !== undefined && sort.sortOrder !== "ASCENDING" && sort.sortOrder !== "DESCENDING") {
      invalid("INVALID_SORT_ORDER", "sortOrder must be ASCENDING or DESCENDING.", "sort.sortOrder");
    }
    sortOrder = (sort.sortOrder as typeof sortOrder | undefined) ?? "DESCENDING";
  }
  const filters = new Map<FilterName, string>();
  if (raw.filters !== undefined) {
    if (!Array.isArray(raw.filters) || raw.filters.length < 1 || raw.filters.length > 10) {
      invalid("INVALID_FILTERS", "filters must be a list of 1 to 10 filters.", "filters");
    }
    for (const f of raw.filters as { name?: unknown; values?: unknown }[]) {
      if (typeof f?.name !== "string" || f.name === "")
        return invalid("MISSING_FILTER_NAME", "Every filter needs a name.", "filters");
      if (!FILTER_NAMES.includes(f.name as FilterName))
        invalid("INVALID_FILTER_NAME", `Filter name ${f.name} is not supported.`, "filters");
      if (!Array.isArray(f.values) || f.values.length === 0)
        invalid("MISSING_FILTER_VALUES", `Filter ${f.name} needs a value.`, "filters");
      const values = f.values as unknown[];
      if (values.length !== 1 || typeof values[0] !== "string" || values[0] === "") {
        invalid("INVALID_FILTER_VALUES", `Filter ${f.name} takes exactly one value.`, "filters");
      }
      if (filters.has(f.name as FilterName))
        invalid("INVALID_FILTERS", `Filter ${f.name} is given more than once.`, "filters");
      filters.set(f.name as FilterName, values[0] as string);
    }
  }
  return { filters, sortOrder, maxResults: maxResults as number, nextToken: raw.nextToken as string | undefined, raw };
}
