import { ApiError } from "../http/api-error.ts";
import { endOfDay } from "../seller/clock.ts";
import type { Offer, Product } from "../seller/types.ts";
import { offerTargeting } from "./entity-views.ts";
import type { OfferFilters, SaaSProductFilters } from "./list-entities-input.ts";

type Range = { DateRange: { AfterValue?: string | undefined; BeforeValue?: string | undefined } } | undefined;

function inRange(range: Range, value: number | undefined): boolean {
  if (!range) return true;
  if (value === undefined) return false;
  const { AfterValue, BeforeValue } = range.DateRange;
  return (!AfterValue || value >= Date.parse(AfterValue)) && (!BeforeValue || value <= Date.parse(BeforeValue));
}

const contains = (haystack: string | undefined, needle: string) =>
  haystack?.toLowerCase().includes(needle.toLowerCase()) === true;

function nameMatches(
  filter: { ValueList?: string[] | undefined; WildCardValue?: string | undefined } | undefined,
  value: string | undefined,
) {
  if (!filter) return true;
  if (filter.WildCardValue !== undefined) return contains(value, filter.WildCardValue);
  return value !== undefined && (filter.ValueList ?? []).includes(value);
}

/** A `{ValueList}` filter: an offer without the member never matches it. */
const valueIn = (filter: { ValueList: readonly string[] } | undefined, value: string | undefined) =>
  !filter || (value !== undefined && filter.ValueList.includes(value));

/** "only one wildcard filter and a maximum of 8 filters" (ListEntities documentation). */
export function checkFilterLimits(filters: Record<string, unknown>): void {
  const set = Object.values(filters).filter((f) => f !== undefined);
  const wildcards = set.filter((f) => typeof f === "object" && f !== null && "WildCardValue" in f).length;
  if (set.length > 8) throw new ApiError(422, "ValidationException", "A maximum of 8 filters is supported.");
  if (wildcards > 1) throw new ApiError(422, "ValidationException", "Only one wildcard filter is supported.");
}

export function offerMatches(o: Offer, f: OfferFilters): boolean {
  const end = o.availabilityEndDate ? endOfDay(o.availabilityEndDate) : undefined;
  return (
    (!f.EntityId || f.EntityId.ValueList.includes(o.id)) &&
    nameMatches(f.Name, o.name) &&
    (!f.ProductId || f.ProductId.ValueList.includes(o.productId)) &&
    inRange(f.ReleaseDate, o.releaseDate) &&
    inRange(f.AvailabilityEndDate, end) &&
    inRange(f.LastModifiedDate, o.lastModified) &&
    (!f.BuyerAccounts || o.buyerAccounts.some((a) => a.includes(f.BuyerAccounts?.WildCardValue ?? ""))) &&
    (!f.State || f.State.ValueList.includes(o.state)) &&
    (!f.Targeting || offerTargeting(o).some((t) => f.Targeting?.ValueList.includes(t as never))) &&
    valueIn(f.ResaleAuthorizationId, o.resaleAuthorizationId) &&
    valueIn(f.OfferSetId, o.offerSetId) &&
    valueIn(f.TargetAgreementId, o.targetAgreementId) &&
    valueIn(f.TargetAgreementIntent, o.targetAgreementIntent) &&
    valueIn(f.CreatedBySource, o.createdBySource)
  );
}

export function productMatches(p: Product, f: SaaSProductFilters): boolean {
  return (
    (!f.EntityId || f.EntityId.ValueList.includes(p.id)) &&
    nameMatches(f.ProductTitle, p.title) &&
    (!f.Visibility || f.Visibility.ValueList.includes(p.visibility)) &&
    inRange(f.LastModifiedDate, p.lastModified)
  );
}

/**
 * The older generic `FilterList` ({Name, ValueList}); the sandbox maps the names that have an
 * obvious meaning for its entity types onto the typed filters and refuses the rest.
 */
export function legacyFilters(
  entityType: string,
  list: { Name: string; ValueList: string[] }[],
): OfferFilters | SaaSProductFilters {
  const out: Record<string, unknown> = {};
  const names: Record<string, Record<string, string>> = {
    Offer: { EntityId: "EntityId", Name: "Name", ProductId: "ProductId", State: "State" },
    SaaSProduct: { EntityId: "EntityId", ProductTitle: "ProductTitle", Name: "ProductTitle", Visibility: "Visibility" },
  };
  for (const { Name, ValueList } of list) {
    // Own keys only: `constructor` or `toString` would find Object.prototype's and filter nothing.
    const byName = names[entityType];
    const target = byName && Object.hasOwn(byName, Name) ? byName[Name] : undefined;
    if (!target)
      throw new ApiError(
        422,
        "ValidationException",
        `Filter name ${Name} is not supported for entity type ${entityType}.`,
      );
    out[target] = { ValueList };
  }
  return out as OfferFilters | SaaSProductFilters;
}
