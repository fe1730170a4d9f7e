import type { LegalTerms, PaymentCharge, Pricing, Validity } from "@flowstate/contracts/rest/offers/terms";

/** A term as the Catalog API carries it (`{Type: "LegalTerm", ...}`). */
export type AwsTerm = { Type: string; Id?: string; [member: string]: unknown };

/** The typed terms of an offer (the parts of a create request that become AWS terms). */
export interface TypedTerms {
  pricing: Pricing;
  payment_schedule?: PaymentCharge[] | undefined;
  legal_terms: LegalTerms;
  validity: Validity;
}

/** UpdatePricingTerms' PricingModel for each typed model. */
export const PRICING_MODEL = { contract: "Contract", usage: "Usage" } as const;

export function pricingTerm(p: Pricing): AwsTerm {
  if (p.model === "contract") {
    return {
      Type: "FixedUpfrontPricingTerm",
      CurrencyCode: p.currency,
      Price: p.price,
      ...(p.duration ? { Duration: p.duration } : {}),
      Grants: p.dimensions.map((d) => ({ DimensionKey: d.key, MaxQuantity: d.quantity })),
    };
  }
  return {
    Type: "UsageBasedPricingTerm",
    CurrencyCode: p.currency,
    RateCards: [{ RateCard: p.rates.map((r) => ({ DimensionKey: r.dimension_key, Price: r.price })) }],
  };
}

export const paymentScheduleTerm = (currency: string, schedule: PaymentCharge[]): AwsTerm => ({
  Type: "PaymentScheduleTerm",
  CurrencyCode: currency,
  Schedule: schedule.map((c) => ({ ChargeDate: c.charge_date, ChargeAmount: c.amount })),
});

export const legalTerm = (l: LegalTerms): AwsTerm => ({
  Type: "LegalTerm",
  Documents: [
    l.eula.type === "custom"
      ? { Type: "CustomEula", Url: l.eula.url }
      : { Type: "StandardEula", ...(l.eula.version ? { Version: l.eula.version } : {}) },
  ],
});

export const validityTerm = (v: Validity): AwsTerm => ({
  Type: "ValidityTerm",
  ...("duration" in v
    ? { AgreementDuration: v.duration }
    : { ...(v.start_date ? { AgreementStartDate: v.start_date } : {}), AgreementEndDate: v.end_date }),
});

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);

/**
 * Reads AWS terms back into the typed shape. Returns each typed part it recognised and the types
 * of the terms it did not (a second pricing term, a support term, ...), so a view can name them
 * and a clone can refuse to drop them.
 */
export function readTerms(terms: readonly AwsTerm[]): Partial<TypedTerms> & { other: string[] } {
  const out: Partial<TypedTerms> & { other: string[] } = { other: [] };
  for (const t of terms) {
    if (t.Type === "FixedUpfrontPricingTerm" && !out.pricing) {
      out.pricing = {
        model: "contract",
        currency: str(t["CurrencyCode"]) as Pricing["currency"],
        price: str(t["Price"]) ?? "0",
        ...(str(t["Duration"]) ? { duration: str(t["Duration"]) } : {}),
        dimensions: list(t["Grants"]).map((g) => ({
          key: str(g["DimensionKey"]) ?? "",
          quantity: typeof g["MaxQuantity"] === "number" ? g["MaxQuantity"] : 1,
        })),
      };
    } else if (t.Type === "UsageBasedPricingTerm" && !out.pricing) {
      out.pricing = {
        model: "usage",
        currency: str(t["CurrencyCode"]) as Pricing["currency"],
        rates: list(t["RateCards"])
          .flatMap((c) => list(c["RateCard"]))
          .map((r) => ({ dimension_key: str(r["DimensionKey"]) ?? "", price: str(r["Price"]) ?? "0" })),
      };
    } else if (t.Type === "PaymentScheduleTerm" && !out.payment_schedule) {
      out.payment_schedule = list(t["Schedule"]).map((s) => ({
        charge_date: (str(s["ChargeDate"]) ?? "").slice(0, 10),
        amount: str(s["ChargeAmount"]) ?? "0",
      }));
    } else if (t.Type === "LegalTerm" && !out.legal_terms && list(t["Documents"]).length === 1) {
      const doc = list(t["Documents"])[0] ?? {};
      const url = str(doc["Url"]);
      if (doc["Type"] === "CustomEula" && url) out.legal_terms = { eula: { type: "custom", url } };
      else if (doc["Type"] === "StandardEula") {
        const version = str(doc["Version"]);
        out.legal_terms = { eula: { type: "standard", ...(version ? { version } : {}) } };
      } else out.other.push(t.Type);
    } else if (t.Type === "ValidityTerm" && !out.validity) {
      const duration = str(t["AgreementDuration"]);
      const end = str(t["AgreementEndDate"]);
      const start = str(t["AgreementStartDate"]);
      if (duration) out.validity = { duration };
      else if (end) out.validity = { ...(start ? { start_date: start.slice(0, 10) } : {}), end_date: end.slice(0, 10) };
      else out.other.push(t.Type);
    } else out.other.push(t.Type);
  }
  return out;
}
