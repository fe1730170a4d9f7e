import { isoDay } from "../seller/clock.ts";
import type { Offer, Product, ProductVisibility, Term } from "../seller/types.ts";
import { ID_LENGTH, seededAccountId, seededId } from "./ids.ts";

const DAY = 86_400_000;

const PRODUCTS: { label: string; title: string; visibility: ProductVisibility; dims: string[] }[] = [
  { label: "analytics", title: "Flowstate Analytics", visibility: "Public", dims: ["BasicService", "PremiumService"] },
  { label: "connect", title: "Flowstate Connect", visibility: "Public", dims: ["Seats"] },
  { label: "insights", title: "Flowstate Insights", visibility: "Limited", dims: ["Users"] },
  { label: "labs", title: "Flowstate Labs", visibility: "Draft", dims: ["Requests"] },
];

export function seedProducts(account: string, now: number): Product[] {
  return PRODUCTS.map((p, i) => ({
    id: seededId(account, `product/${p.label}`, "prod", ID_LENGTH.prod),
    title: p.title,
    visibility: p.visibility,
    shortDescription: `${p.title} for AWS Marketplace buyers.`,
    longDescription: `${p.title}: a sandbox SaaS product of seller ${account}.`,
    dimensions: p.dims.map((key) => ({
      Key: key,
      Name: key.replace(/([a-z])([A-Z])/g, "$1 $2"),
      Description: `${key} entitlement`,
      Unit: "Units",
      Types: ["Entitled"],
    })),
    lastModified: now - (30 - i) * DAY,
  }));
}

/** The terms a complete private contract offer carries (AWS reference change set, see README). */
export function contractTerms(currency: string, dimension: string, firstCharge: string): Term[] {
  return [
    {
      Type: "FixedUpfrontPricingTerm",
      CurrencyCode: currency,
      Price: "0.0",
      Grants: [{ DimensionKey: dimension, MaxQuantity: 1 }],
    },
    { Type: "ValidityTerm", AgreementDuration: "P12M" },
    {
      Type: "PaymentScheduleTerm",
      CurrencyCode: currency,
      Schedule: [{ ChargeDate: firstCharge, ChargeAmount: "12000.00" }],
    },
    { Type: "LegalTerm", Documents: [{ Type: "StandardEula", Version: "2022-07-14" }] },
  ].map((t, i) => ({ ...t, Id: `term-${i + 1}` }));
}

/**
 * Offers of a fresh seller: a public offer per public product, and three private offers in the
 * states the connector shows (draft, released, expired). Dates are relative to the account's
 * clock so the released offer stays open and the expired one stays closed.
 */
export function seedOffers(account: string, products: Product[], now: number): Offer[] {
  const id = (label: string) => seededId(account, `offer/${label}`, "offer", ID_LENGTH.offer);
  const [analytics, connect, insights] = products as [Product, Product, Product];
  const base = {
    revision: 1,
    countryCodes: undefined,
    preExistingAgreement: undefined,
    createdBySource: "Seller" as const,
  };
  const publicOffer = (p: Product): Offer => ({
    ...base,
    id: id(`public/${p.id}`),
    productId: p.id,
    name: `${p.title} public offer`,
    description: "Pay as you go",
    state: "Released",
    buyerAccounts: [],
    releaseDate: now - 25 * DAY,
    terms: [
      {
        Type: "UsageBasedPricingTerm",
        Id: "term-1",
        CurrencyCode: "USD",
        RateCards: [{ RateCard: [{ DimensionKey: p.dimensions[0]?.Key, Price: "0.10" }] }],
      },
      { Type: "LegalTerm", Id: "term-2", Documents: [{ Type: "StandardEula", Version: "2022-07-14" }] },
    ],
    lastModified: now - 25 * DAY,
  });
  const privateOffer = (
    label: string,
    p: Product,
    state: Offer["state"],
    endOffsetDays: number,
    releasedDaysAgo?: number,
  ): Offer => ({
    ...base,
    id: id(`private/${label}`),
    productId: p.id,
    name: `${p.title} private offer (${label})`,
    description: `Annual contract for buyer ${label}`,
    state,
    buyerAccounts: [seededAccountId(account, label)],
    availabilityEndDate: isoDay(now + endOffsetDays * DAY),
    releaseDate: releasedDaysAgo === undefined ? undefined : now - releasedDaysAgo * DAY,
    terms: contractTerms("USD", p.dimensions[0]?.Key ?? "BasicService", isoDay(now + 40 * DAY)),
    lastModified: now - (releasedDaysAgo ?? 1) * DAY,
  });
  return [
    publicOffer(analytics),
    publicOffer(connect),
    privateOffer("draft", analytics, "Draft", 60),
    privateOffer("released", connect, "Released", 45, 5),
    privateOffer("expired", insights, "Released", -3, 20),
  ];
}
