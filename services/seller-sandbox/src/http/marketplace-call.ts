import type { Context } from "hono";
import type { SandboxDeps } from "../context.ts";
import { applyFaults } from "../control/faults.ts";
import type { Caller } from "../credentials/authenticate.ts";
import type { SellerState } from "../seller/types.ts";
import { ApiError, type JsonProtocol, jsonAuthError, jsonResponse, renderApiError } from "./api-error.ts";
import { receive } from "./receive.ts";

export interface CallContext {
  deps: SandboxDeps;
  caller: Caller;
  seller: SellerState;
  /** The request body as text ("" for the GET/PATCH operations). */
  body: string;
  /** Query parameters (Catalog's GET and PATCH operations carry their input there). */
  query: URLSearchParams;
  requestId: string;
}

export type Operation = (call: CallContext) => Promise<unknown> | unknown;

const FAULTS: Record<JsonProtocol, Record<"throttle" | "error", [number, string, string]>> = {
  restJson1: {
    throttle: [429, "ThrottlingException", "Rate exceeded"],
    error: [500, "InternalServiceException", "An internal error occurred. Try again later."],
  },
  awsJson1_0: {
    throttle: [429, "ThrottlingException", "Rate exceeded"],
    error: [500, "InternalServerException", "An internal error occurred. Try again later."],
  },
};

/**
 * The common path of every Catalog and Agreement call: authenticate the SigV4 caller, find the
 * seller account its credentials act in, apply that account's faults, run the operation, and
 * render its result or error in the protocol's shape. Never lets an exception become a crash.
 */
export async function marketplaceCall(
  c: Context,
  deps: SandboxDeps,
  protocol: JsonProtocol,
  name: string,
  operation: Operation,
): Promise<Response> {
  const requestId = crypto.randomUUID();
  try {
    const received = await receive(c);
    const auth = deps.authenticator.authenticate(received, "aws-marketplace");
    if (!auth.ok) throw jsonAuthError(auth.reason, auth.message);
    const { caller } = auth;
    if (caller.kind !== "session") {
      throw new ApiError(
        403,
        "AccessDeniedException",
        `User: ${caller.arn} is not authorized to perform: aws-marketplace:${name} because no identity-based policy allows the aws-marketplace:${name} action`,
      );
    }
    const seller = deps.sellers.get(caller.account);
    const fault = await applyFaults(seller, name);
    if (fault) throw new ApiError(...FAULTS[protocol][fault]);
    const query = new URLSearchParams(received.rawQuery);
    const result = await operation({ deps, caller, seller, body: received.text, query, requestId });
    return jsonResponse(result, protocol, requestId);
  } catch (err) {
    if (err instanceof ApiError) return renderApiError(err, protocol, requestId);
    deps.logger.error({ err, operation: name, request_id: requestId }, "sandbox operation failed");
    const [status, code, message] = FAULTS[protocol].error;
    return renderApiError(new ApiError(status, code, message), protocol, requestId);
  }
}
