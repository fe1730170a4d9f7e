import { z } from "zod";
import { AGREEMENT_STATUSES } from "../seller/types.ts";

export const AccountId = z.string().regex(/^\d{12}$/, "must be a 12-digit AWS account id");

export const FaultInput = z.object({
  kind: z.enum(["throttle", "error", "latency"]),
  /** Operation names (`ListEntities`, `SearchAgreements`, `AssumeRole`, ...); every operation when omitted. */
  operations: z.array(z.string().min(1)).default([]),
  /** Number of requests it hits before switching itself off; forever when omitted. */
  count: z.number().int().min(1).optional(),
  latencyMs: z.number().int().min(0).max(60_000).default(0),
});
export type FaultInput = z.infer<typeof FaultInput>;

export const FaultsInput = z.object({ faults: z.array(FaultInput).max(20) });

export const ClockInput = z.union([
  z.object({ offsetSeconds: z.number().int() }).strict(),
  z.object({ advanceSeconds: z.number().int().min(0) }).strict(),
]);

export const PayoutCurrenciesInput = z.object({
  currencies: z.array(z.enum(["USD", "EUR", "GBP", "AUD", "JPY", "CAD", "INR"])).min(1),
});

export const TimingInput = z.object({ changeSetStepMs: z.number().int().min(0).max(600_000) });

export const FlushInput = z.object({ roleArn: z.string().optional() });

/** A buyer accepts a released offer: the sandbox makes the purchase agreement AWS would (ACTIVE, one year). */
export const AcceptOfferInput = z.strictObject({
  offerId: z.string().regex(/^offer-[a-z0-9]{13}$/),
  /** The buyer; the offer's first targeted buyer, or a fixed public buyer, when omitted. */
  acceptorAccountId: AccountId.optional(),
});

/** What AWS may do to an agreement later: cancel, expire, terminate, renew, replace... */
export const AgreementStatusInput = z.strictObject({ status: z.enum(AGREEMENT_STATUSES) });
