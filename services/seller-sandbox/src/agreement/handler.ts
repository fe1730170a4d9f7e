import type { Context } from "hono";
import type { SandboxDeps } from "../context.ts";
import { ApiError, renderApiError } from "../http/api-error.ts";
import { marketplaceCall } from "../http/marketplace-call.ts";
import { describeAgreement } from "./describe-agreement.ts";
import { getAgreementTerms } from "./get-agreement-terms.ts";
import { searchAgreements } from "./search-agreements.ts";

const PREFIX = "AWSMPCommerceService_v20200301.";
const operations = {
  SearchAgreements: searchAgreements,
  DescribeAgreement: describeAgreement,
  GetAgreementTerms: getAgreementTerms,
} as const;

/**
 * Marketplace Agreement (awsJson1_0): `POST /` with `X-Amz-Target: AWSMPCommerceService_v20200301.<Op>`
 * and `Content-Type: application/x-amz-json-1.0`.
 */
export function handleAgreement(c: Context, deps: SandboxDeps): Promise<Response> | Response {
  const target = c.req.header("x-amz-target") ?? "";
  const name = target.startsWith(PREFIX) ? target.slice(PREFIX.length) : "";
  // Own keys only: `constructor` or `toString` would otherwise find Object.prototype's functions,
  // run them past authorization and echo the call context (with the caller) as a 200.
  const operation = Object.hasOwn(operations, name) ? operations[name as keyof typeof operations] : undefined;
  if (!operation) {
    return renderApiError(
      new ApiError(400, "UnknownOperationException", `Unknown operation ${target}`),
      "awsJson1_0",
      crypto.randomUUID(),
    );
  }
  if (!(c.req.header("content-type") ?? "").startsWith("application/x-amz-json-1.0")) {
    return renderApiError(
      new ApiError(400, "ValidationException", "Content-Type must be application/x-amz-json-1.0", { reason: "OTHER" }),
      "awsJson1_0",
      crypto.randomUUID(),
    );
  }
  return marketplaceCall(c, deps, "awsJson1_0", name, operation);
}
