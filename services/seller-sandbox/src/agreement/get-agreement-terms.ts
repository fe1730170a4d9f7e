import { ApiError } from "../http/api-error.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { paginate, queryFingerprint } from "../http/paginate.ts";
import type { Term } from "../seller/types.ts";
import { agreementBody, agreementIdOf, authorizedAgreement } from "./agreement-id.ts";

// Members the Agreement model types as timestamps (epoch seconds on the awsJson wire); the Catalog
// carries them as `YYYY-MM-DD` strings.
const TIMESTAMPS = new Set(["ChargeDate", "AgreementStartDate", "AgreementEndDate"]);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function camel(value: unknown, key = ""): unknown {
  if (typeof value === "string" && TIMESTAMPS.has(key)) return Date.parse(`${value}T00:00:00Z`) / 1000;
  if (Array.isArray(value)) return value.map((v) => camel(v));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [lowerFirst(k), camel(v, k)]));
  }
  return value;
}

/**
 * An offer term (Catalog, PascalCase) as an AcceptedTerm: a union whose one member is named after
 * the term type (`legalTerm`, `fixedUpfrontPricingTerm`, ...), members lower-camel, dates as
 * timestamps, as the Agreement model shapes them.
 */
export const acceptedTerm = (t: Term) => ({ [lowerFirst(t.Type)]: camel(t) });

/** GetAgreementTerms: the accepted terms, paginated (`aws-marketplace:GetAgreementTerms`). */
export async function getAgreementTerms(call: CallContext) {
  const body = agreementBody(call);
  const id = agreementIdOf(body);
  const maxResults = body["maxResults"] ?? 50;
  if (typeof maxResults !== "number" || !Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) {
    throw new ApiError(400, "ValidationException", "maxResults must be an integer between 1 and 50.", {
      reason: "INVALID_MAX_RESULTS",
      fields: [{ name: "maxResults", message: "must be between 1 and 50" }],
    });
  }
  const nextToken = body["nextToken"];
  const badToken = () => {
    throw new ApiError(400, "ValidationException", "The nextToken is not valid.", { reason: "INVALID_NEXT_TOKEN" });
  };
  if (nextToken !== undefined && (typeof nextToken !== "string" || !/^[a-zA-Z0-9+/=_-]{0,8192}$/.test(nextToken))) {
    badToken();
  }
  const agreement = await authorizedAgreement(call, "aws-marketplace:GetAgreementTerms", id);
  const { page, nextToken: next } = paginate(agreement.terms, {
    token: nextToken as string | undefined,
    max: maxResults,
    fingerprint: queryFingerprint(body, ["nextToken", "maxResults"]),
    onInvalid: badToken,
  });
  return { acceptedTerms: page.map(acceptedTerm), ...(next ? { nextToken: next } : {}) };
}
