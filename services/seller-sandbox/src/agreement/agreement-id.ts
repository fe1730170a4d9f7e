import { ApiError } from "../http/api-error.ts";
import { authorize } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { parseJsonBody } from "../http/validate.ts";
import type { Agreement } from "../seller/types.ts";

const invalid = (reason: string, message: string, field: string): never => {
  throw new ApiError(400, "ValidationException", message, { reason, fields: [{ name: field, message }] });
};

/** The request body as an object, or the Agreement API's ValidationException (reason OTHER). */
export function agreementBody(call: CallContext): Record<string, unknown> {
  const body = parseJsonBody(call.body, 400, { reason: "OTHER" });
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "ValidationException", "The request body must be a JSON object.", { reason: "OTHER" });
  }
  return body as Record<string, unknown>;
}

/** `agreementId`: required, ResourceId (1..64, `[A-Za-z0-9_/-]+`) in the Agreement model. */
export function agreementIdOf(body: Record<string, unknown>): string {
  const id = body["agreementId"];
  if (id === undefined || id === null || id === "")
    return invalid("MISSING_AGREEMENT_ID", "agreementId is required.", "agreementId");
  if (typeof id !== "string" || id.length > 64 || !/^[A-Za-z0-9_/-]+$/.test(id)) {
    return invalid("INVALID_AGREEMENT_ID", "agreementId is not valid.", "agreementId");
  }
  return id;
}

/**
 * Finds the agreement and checks `action` the way the Service Authorization Reference lists it for
 * DescribeAgreement and GetAgreementTerms: resource `*`, condition keys `aws-marketplace:PartyType`
 * (the caller's side of the agreement) and `aws-marketplace:AgreementType`. The sandbox seller
 * proposes every agreement it holds; an id it does not hold is checked as a proposer's purchase
 * agreement too, so a caller without the permission gets 403 whatever the id and never learns
 * which ids exist, and one with it gets 404.
 */
export async function authorizedAgreement(call: CallContext, action: string, id: string): Promise<Agreement> {
  const agreement = call.seller.agreements.find((a) => a.id === id);
  await authorize(call.deps, call.caller, action, "*", {
    "aws-marketplace:PartyType": ["Proposer"],
    "aws-marketplace:AgreementType": ["PurchaseAgreement"],
  });
  if (!agreement) {
    throw new ApiError(404, "ResourceNotFoundException", `Agreement ${id} was not found.`, {
      resourceId: id,
      resourceType: "Agreement",
    });
  }
  return agreement;
}
