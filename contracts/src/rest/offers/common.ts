import { z } from "zod";
import { TenantId } from "../../ids.ts";

/**
 * Field shapes of the Marketplace offers API. Ids are AWS's (`offer-…`, `prod-…`, `agmt-…`, a
 * change-set id of letters and digits), passed through unchanged; we only bound their form so a
 * malformed id is a 400 here and never reaches the seller's account.
 */
export const OfferId = z.string().regex(/^offer-[A-Za-z0-9]{1,64}$/, "expected an offer id such as offer-abc123");
export const ProductId = z.string().regex(/^prod-[A-Za-z0-9]{1,64}$/, "expected a product id such as prod-abc123");
export const AgreementId = z.string().regex(/^agmt-[A-Za-z0-9]{1,64}$/, "expected an agreement id");
export const ChangeSetId = z.string().regex(/^[A-Za-z0-9]{1,64}$/, "expected a change-set id");
export const AwsAccountId = z.string().regex(/^\d{12}$/, "expected a 12-digit AWS account id");

/** Currencies AWS Marketplace private offers can be priced in (AWS: USD, AUD, EUR, GBP, JPY). */
export const Currency = z.enum(["USD", "EUR", "GBP", "AUD", "JPY"]);
export type Currency = z.infer<typeof Currency>;

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 is refused), in UTC. */
export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD")
  // zod runs this even when the format failed, and "2026-13-45" passes the format: an Invalid Date
  // (whose toISOString throws, a 500) is a refusal like any other.
  .refine((d) => {
    const day = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(d);
  }, "expected a date that exists");

/** A money amount as AWS writes it: a decimal string with at most two decimals ("200.00"). */
export const Amount = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, "expected an amount such as 200.00");

/** An ISO 8601 duration in days, months or years, as AWS's terms take it ("P12M"). */
export const Duration = z.string().regex(/^P[1-9]\d{0,3}[DMY]$/, "expected a duration such as P12M");

export const Timestamp = z.iso.datetime({ offset: true });

/** An opaque page cursor (AWS's own token, passed through; reuse it only with the same filters). */
export const Cursor = z.string().min(1).max(8192);
export const PageLimit = z.coerce.number().int().min(1).max(50).default(20);

/** Today in UTC, `YYYY-MM-DD`: dates a seller gives are compared with it. */
export const today = (): string => new Date().toISOString().slice(0, 10);

export const MarketplacePath = z.object({ id: TenantId });
export const OfferPath = z.object({ id: TenantId, offer_id: OfferId });
export const ChangePath = z.object({ id: TenantId, change_set_id: ChangeSetId });
export const AgreementPath = z.object({ id: TenantId, agreement_id: AgreementId });

/** Where offers-svc's routes live: `/v1/tenants/{id}/integrations/marketplace/...`. */
export const marketplacePath = (tenantId: string, rest: string) =>
  `/v1/tenants/${tenantId}/integrations/marketplace/${rest}`;
