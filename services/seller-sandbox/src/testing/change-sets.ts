import {
  type Change,
  DescribeChangeSetCommand,
  type DescribeChangeSetCommandOutput,
  type MarketplaceCatalogClient,
  StartChangeSetCommand,
} from "@aws-sdk/client-marketplace-catalog";

const TERMINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/**
 * Polls DescribeChangeSet until the change set ends; returns the last answer and every status
 * seen on the way (so a test can assert the PREPARING → APPLYING → ... progression).
 */
export async function waitForChangeSet(
  catalog: MarketplaceCatalogClient,
  changeSetId: string,
  timeoutMs = 10_000,
): Promise<{ final: DescribeChangeSetCommandOutput; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = await catalog.send(
      new DescribeChangeSetCommand({ Catalog: "AWSMarketplace", ChangeSetId: changeSetId }),
    );
    const status = out.Status ?? "";
    if (seen.at(-1) !== status) seen.push(status);
    if (TERMINAL.has(status)) return { final: out, seen };
    if (Date.now() > deadline) throw new Error(`change set ${changeSetId} still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts a change set and waits for its end. */
export async function runChangeSet(catalog: MarketplaceCatalogClient, ChangeSet: Change[]) {
  const { ChangeSetId } = await catalog.send(new StartChangeSetCommand({ Catalog: "AWSMarketplace", ChangeSet }));
  return waitForChangeSet(catalog, ChangeSetId ?? "");
}

const ref = "$CreateOfferChange.Entity.Identifier";
const on = (Identifier: string) => ({ Type: "Offer@1.0", Identifier });

/** `YYYY-MM-DD`, `days` from now. */
export const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The changes of a complete private SaaS contract offer (AWS's reference change set), ready to
 * release; `currency` defaults to USD.
 */
export function privateOfferChanges(
  productId: string,
  options: { buyer?: string; currency?: string; name?: string } = {},
): Change[] {
  const currency = options.currency ?? "USD";
  return [
    {
      ChangeType: "CreateOffer",
      ChangeName: "CreateOfferChange",
      Entity: { Type: "Offer@1.0" },
      DetailsDocument: { ProductId: productId },
    },
    {
      ChangeType: "UpdateInformation",
      Entity: on(ref),
      DetailsDocument: { Name: options.name ?? "Test private offer", Description: "For one buyer" },
    },
    {
      ChangeType: "UpdateTargeting",
      Entity: on(ref),
      DetailsDocument: { PositiveTargeting: { BuyerAccounts: [options.buyer ?? "444455556666"] } },
    },
    {
      ChangeType: "UpdatePricingTerms",
      Entity: on(ref),
      DetailsDocument: {
        PricingModel: "Contract",
        Terms: [
          {
            Type: "FixedUpfrontPricingTerm",
            CurrencyCode: currency,
            Price: "0.0",
            Grants: [{ DimensionKey: "BasicService", MaxQuantity: 1 }],
          },
        ],
      },
    },
    {
      ChangeType: "UpdateValidityTerms",
      Entity: on(ref),
      DetailsDocument: { Terms: [{ Type: "ValidityTerm", AgreementDuration: "P12M" }] },
    },
    {
      ChangeType: "UpdatePaymentScheduleTerms",
      Entity: on(ref),
      DetailsDocument: {
        Terms: [
          {
            Type: "PaymentScheduleTerm",
            CurrencyCode: currency,
            Schedule: [{ ChargeDate: dayFromNow(40), ChargeAmount: "200.00" }],
          },
        ],
      },
    },
    {
      ChangeType: "UpdateLegalTerms",
      Entity: on(ref),
      DetailsDocument: {
        Terms: [{ Type: "LegalTerm", Documents: [{ Type: "CustomEula", Url: "https://example.com/eula.pdf" }] }],
      },
    },
    { ChangeType: "UpdateAvailability", Entity: on(ref), DetailsDocument: { AvailabilityEndDate: dayFromNow(30) } },
  ];
}

/** The offer id a change set created (CreateOffer's resolved identifier). */
export function createdOfferId(out: DescribeChangeSetCommandOutput): string {
  return out.ChangeSet?.find((c) => c.ChangeType === "CreateOffer")?.Entity?.Identifier ?? "";
}
