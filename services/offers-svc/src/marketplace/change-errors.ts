/**
 * AWS's asynchronous change error codes (ErrorDetailList) in words a seller understands. AWS's
 * own message is not shown (it is upstream text); a code not listed here gets a generic sentence
 * that still names it. Sources: AWS "Work with private offers", and the sandbox's documented codes.
 */
const MESSAGES: Record<string, string> = {
  INVALID_BUYER_ACCOUNTS: "The offer needs at least one valid buyer AWS account before it can be released.",
  MISSING_NAME: "The offer needs a name before it can be released.",
  MISSING_DESCRIPTION: "The offer needs a description before it can be released.",
  MISSING_AVAILABILITY_END_DATE: "A private offer needs an availability end date before it can be released.",
  INVALID_AVAILABILITY_END_DATE: "The availability end date is not valid for this offer (it may be in the past).",
  MISSING_MANDATORY_TERMS: "The offer is missing terms AWS requires (pricing and a EULA) before it can be released.",
  INVALID_CURRENCY_CODE: "The currency is not accepted for private offers, or the offer's terms mix currencies.",
  INCOMPATIBLE_PAYMENT_SETTINGS:
    "The seller's AWS Marketplace payment settings cannot pay out in this currency; add it to the disbursement preferences or choose another.",
  INCOMPATIBLE_PRODUCT: "Offers cannot be created for this product in its current state (it must be published).",
  INCOMPATIBLE_TARGETING: "The buyers of an offer cannot change after it has been released.",
  INCOMPATIBLE_TERMS: "This term cannot change after the offer has been released.",
  INCOMPATIBLE_PAYMENT_SCHEDULE: "The payment schedule does not fit the offer's validity or availability dates.",
  INVALID_OFFER_STATE: "The offer is not in a state that allows this change (it may already be released).",
  INVALID_ENTITY_REFERENCE: "This change could not be applied because an earlier change in the same request failed.",
};

export function changeErrorMessage(code: string): string {
  return (
    (Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : undefined) ?? `AWS Marketplace refused this change (${code}).`
  );
}
