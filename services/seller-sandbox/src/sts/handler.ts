import type { Context } from "hono";
import type { SandboxDeps } from "../context.ts";
import { applyFaults } from "../control/faults.ts";
import { receive } from "../http/receive.ts";
import { parseRoleArn } from "../iam/role-store.ts";
import { assumeRole } from "./assume-role.ts";
import { StsError, stsAuthError } from "./errors.ts";
import { getCallerIdentity } from "./get-caller-identity.ts";
import { queryError, queryResponse } from "./xml.ts";

const FAULTS = {
  // STS throttles with HTTP 400 and code "Throttling", which the SDK's retry strategy knows.
  throttle: new StsError(400, "Throttling", "Rate exceeded"),
  error: new StsError(500, "InternalFailure", "An internal error occurred.", "Receiver"),
};

function xml(status: number, body: string, requestId: string): Response {
  return new Response(body, { status, headers: { "content-type": "text/xml", "x-amzn-requestid": requestId } });
}

/**
 * STS (awsQuery): a form-encoded `POST /` with `Action` and `Version`, answered in XML. Supports
 * AssumeRole and GetCallerIdentity; anything else is InvalidAction.
 */
export async function handleSts(c: Context, deps: SandboxDeps): Promise<Response> {
  const requestId = crypto.randomUUID();
  try {
    const received = await receive(c);
    const form = new URLSearchParams(received.text);
    const action = form.get("Action");
    if (form.get("Version") !== "2011-06-15" || (action !== "AssumeRole" && action !== "GetCallerIdentity")) {
      throw new StsError(
        400,
        "InvalidAction",
        `Could not find operation ${action ?? ""} for version ${form.get("Version") ?? ""}`,
      );
    }
    const auth = deps.authenticator.authenticate(received, "sts");
    if (!auth.ok) throw stsAuthError(auth.reason, auth.message);
    const roleAccount = action === "AssumeRole" ? parseRoleArn(form.get("RoleArn") ?? "")?.account : undefined;
    const faultAccount = roleAccount ?? (auth.caller.kind === "session" ? auth.caller.account : undefined);
    if (faultAccount) {
      const fault = await applyFaults(deps.sellers.get(faultAccount), action);
      if (fault) throw FAULTS[fault];
    }
    const result = action === "AssumeRole" ? await assumeRole(deps, auth.caller, form) : getCallerIdentity(auth.caller);
    return xml(200, queryResponse(action, result, requestId), requestId);
  } catch (err) {
    if (err instanceof StsError)
      return xml(err.status, queryError(err.code, err.message, requestId, err.type), requestId);
    deps.logger.error({ err, request_id: requestId }, "sandbox STS call failed");
    return xml(500, queryError("InternalFailure", "An internal error occurred.", requestId, "Receiver"), requestId);
  }
}
