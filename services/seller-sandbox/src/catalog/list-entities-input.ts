import { z } from "zod";

// Shapes and constraints from the Catalog model (marketplace-catalog 2018-09-17 service-2.json).
export const DateTimeIso = z
  .string()
  .regex(
    /^(\d{4})-(1[0-2]|0[1-9])-(3[01]|0[1-9]|[12]\d)T(2[0-3]|[01]\d):([0-5]\d):([0-5]\d)Z$/,
    "Member must satisfy regular expression pattern: YYYY-MM-DDThh:mm:ssZ",
  );
const DateRange = z
  .object({ DateRange: z.object({ AfterValue: DateTimeIso.optional(), BeforeValue: DateTimeIso.optional() }).strict() })
  .strict();
const Values = (max: number) => z.object({ ValueList: z.array(z.string().min(1).max(255)).min(1).max(max) }).strict();
const ValuesOrWildcard = z
  .object({
    ValueList: z.array(z.string().min(1).max(255)).min(1).max(10).optional(),
    WildCardValue: z.string().min(1).max(255).optional(),
  })
  .strict()
  .refine(
    (f) => (f.ValueList === undefined) !== (f.WildCardValue === undefined),
    "Member must have exactly one of ValueList or WildCardValue",
  );
export const SortOrder = z.enum(["ASCENDING", "DESCENDING"]);
/** The generic `FilterList` of ListEntities and ListChangeSets: 1..8 filters of 1..10 values each. */
export const FilterList = z
  .array(
    z.object({
      Name: z
        .string()
        .min(1)
        .max(255)
        .regex(/^[a-zA-Z]+$/),
      ValueList: z.array(z.string().min(1).max(255)).min(1).max(10),
    }),
  )
  .min(1)
  .max(8);
export const NextToken = z.string().min(1).max(2048);
const Patterned = (pattern: RegExp, max: number) =>
  z.string().min(1).max(max).regex(pattern, `Member must satisfy regular expression pattern: ${pattern.source}`);
const PatternedValues = (pattern: RegExp, max: number) =>
  z.object({ ValueList: z.array(Patterned(pattern, max)).min(1).max(10) }).strict();
// The model gives both enum filters' value lists 1..2 members (even TargetAgreementIntent's, whose enum has one value).
const EnumValues = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.object({ ValueList: z.array(z.enum(values)).min(1).max(2) }).strict();

export const OfferFilters = z
  .object({
    EntityId: Values(10).optional(),
    Name: ValuesOrWildcard.optional(),
    ProductId: Values(10).optional(),
    // OfferResaleAuthorizationIdString, OfferSetIdString and OfferTargetAgreementIdString patterns.
    ResaleAuthorizationId: PatternedValues(/^[a-zA-Z0-9][.a-zA-Z0-9/-]+[a-zA-Z0-9]$/, 255).optional(),
    ReleaseDate: DateRange.optional(),
    AvailabilityEndDate: DateRange.optional(),
    BuyerAccounts: z
      .object({ WildCardValue: z.string().min(1).max(255) })
      .strict()
      .optional(),
    State: z
      .object({
        ValueList: z
          .array(z.enum(["Draft", "Released"]))
          .min(1)
          .max(2),
      })
      .strict()
      .optional(),
    Targeting: z
      .object({
        ValueList: z
          .array(z.enum(["BuyerAccounts", "ParticipatingPrograms", "CountryCodes", "None"]))
          .min(1)
          .max(4),
      })
      .strict()
      .optional(),
    LastModifiedDate: DateRange.optional(),
    OfferSetId: PatternedValues(/^offerset-[a-zA-Z0-9][.a-zA-Z0-9/-]+[a-zA-Z0-9]$/, 50).optional(),
    TargetAgreementId: PatternedValues(/^(.)+$/, 64).optional(),
    TargetAgreementIntent: EnumValues(["Renew"]).optional(),
    CreatedBySource: EnumValues(["Seller", "AwsMarketplace"]).optional(),
  })
  .strict();
export type OfferFilters = z.infer<typeof OfferFilters>;

export const SaaSProductFilters = z
  .object({
    EntityId: Values(10).optional(),
    ProductTitle: ValuesOrWildcard.optional(),
    Visibility: z
      .object({
        ValueList: z
          .array(z.enum(["Limited", "Public", "Restricted", "Draft"]))
          .min(1)
          .max(4),
      })
      .strict()
      .optional(),
    LastModifiedDate: DateRange.optional(),
  })
  .strict();
export type SaaSProductFilters = z.infer<typeof SaaSProductFilters>;

const OfferSortBy = z.enum([
  "EntityId",
  "Name",
  "ProductId",
  "ResaleAuthorizationId",
  "ReleaseDate",
  "AvailabilityEndDate",
  "BuyerAccounts",
  "State",
  "Targeting",
  "LastModifiedDate",
  "OfferSetId",
  "TargetAgreementId",
  "TargetAgreementIntent",
  "CreatedBySource",
]);
const SaaSProductSortBy = z.enum(["EntityId", "ProductTitle", "Visibility", "LastModifiedDate", "DeliveryOptionTypes"]);

export const ListEntitiesInput = z
  .object({
    Catalog: z.string().min(1).max(64),
    EntityType: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[a-zA-Z]+$/, "Member must satisfy regular expression pattern: ^[a-zA-Z]+$"),
    FilterList: FilterList.optional(),
    Sort: z.object({ SortBy: z.string().min(1).max(255).optional(), SortOrder: SortOrder.optional() }).optional(),
    NextToken: NextToken.optional(),
    MaxResults: z
      .number()
      .int()
      .min(1, "Member must have value greater than or equal to 1")
      .max(50, "Member must have value less than or equal to 50")
      .optional(),
    OwnershipType: z.enum(["SELF", "SHARED"]).optional(),
    EntityTypeFilters: z
      .object({ OfferFilters: OfferFilters.optional(), SaaSProductFilters: SaaSProductFilters.optional() })
      .catchall(z.unknown())
      .refine((u) => Object.keys(u).length === 1, "Member must set exactly one member of the union")
      .optional(),
    EntityTypeSort: z
      .object({
        OfferSort: z.object({ SortBy: OfferSortBy.optional(), SortOrder: SortOrder.optional() }).optional(),
        SaaSProductSort: z.object({ SortBy: SaaSProductSortBy.optional(), SortOrder: SortOrder.optional() }).optional(),
      })
      .catchall(z.unknown())
      .refine((u) => Object.keys(u).length === 1, "Member must set exactly one member of the union")
      .optional(),
  })
  .loose();
export type ListEntitiesInput = z.infer<typeof ListEntitiesInput>;

/** Entity types the ListEntities documentation names; the sandbox holds SaaSProduct, Offer and Seller. */
export const KNOWN_ENTITY_TYPES = new Set([
  "AmiProduct",
  "ContainerProduct",
  "DataProduct",
  "SaaSProduct",
  "ProcurementPolicy",
  "Experience",
  "Audience",
  "BrandingSettings",
  "Offer",
  "OfferSet",
  "Seller",
  "ResaleAuthorization",
  "Solution",
  "MachineLearningProduct",
]);
