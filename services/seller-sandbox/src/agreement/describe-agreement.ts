import type { CallContext } from "../http/marketplace-call.ts";
import type { Term } from "../seller/types.ts";
import { agreementBody, agreementIdOf, authorizedAgreement } from "./agreement-id.ts";
import { agreementSummary } from "./agreement-view.ts";

/**
 * `estimatedCharges` (DescribeAgreementOutput): the total of the payment schedule, else the
 * upfront price; none for pay-as-you-go agreements, whose value is not known in advance.
 */
function estimatedCharges(terms: readonly Term[]): { currencyCode: string; agreementValue: string } | undefined {
  const schedule = terms.find((t) => t.Type === "PaymentScheduleTerm");
  const upfront = terms.find((t) => t.Type === "FixedUpfrontPricingTerm");
  const source = schedule ?? upfront;
  if (!source || typeof source["CurrencyCode"] !== "string") return undefined;
  const amount = schedule
    ? ((schedule["Schedule"] as { ChargeAmount: string }[] | undefined) ?? []).reduce(
        (sum, s) => sum + Number(s.ChargeAmount),
        0,
      )
    : Number(upfront?.["Price"] ?? 0);
  return { currencyCode: source["CurrencyCode"], agreementValue: amount.toFixed(2) };
}

/** DescribeAgreement: one agreement the seller proposed (`aws-marketplace:DescribeAgreement`). */
export async function describeAgreement(call: CallContext) {
  const id = agreementIdOf(agreementBody(call));
  const agreement = await authorizedAgreement(call, "aws-marketplace:DescribeAgreement", id);
  const charges = estimatedCharges(agreement.terms);
  return { ...agreementSummary(call.seller, agreement), ...(charges ? { estimatedCharges: charges } : {}) };
}
