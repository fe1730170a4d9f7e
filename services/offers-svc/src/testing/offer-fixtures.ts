import type { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import type { z } from "zod";

/** `YYYY-MM-DD`, `days` from today (UTC). */
export const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A complete private contract offer on `productId` (the seeded products have dimension BasicService first). */
export function offerRequest(
  productId: string,
  overrides: Partial<z.input<typeof CreateOfferRequest>> = {},
): z.input<typeof CreateOfferRequest> {
  return {
    product_id: productId,
    name: "Acme annual contract",
    description: "Twelve months of Flowstate Analytics for Acme",
    buyer_accounts: ["444455556666"],
    pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: "BasicService", quantity: 1 }] },
    payment_schedule: [{ charge_date: dayFromNow(40), amount: "12000.00" }],
    legal_terms: { eula: { type: "standard", version: "2022-07-14" } },
    validity: { duration: "P12M" },
    availability_end_date: dayFromNow(30),
    ...overrides,
  } as z.input<typeof CreateOfferRequest>;
}

export const marketplace = (tenantId: string, rest: string) =>
  `/v1/tenants/${tenantId}/integrations/marketplace/${rest}`;

/** A complete replacement offer for an agreement: an offer request without product and buyers (the agreement's). */
export function replacementRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { product_id: _p, buyer_accounts: _b, ...rest } = offerRequest("prod-unused", { name: "Acme, new terms" });
  return { ...rest, ...overrides };
}
