import type { AuthFailureReason } from "../credentials/authenticate.ts";
import { AUTH_ERROR_CODES, AwsError } from "./aws-error.ts";

/**
 * An error answer of the JSON protocols (Catalog restJson1, Agreement awsJson1_0). `name` is what
 * the SDK raises (`err.name`); `fields` carries the Agreement API's extra members (reason, ...).
 */
export class ApiError extends AwsError {
  readonly fields: Record<string, unknown>;
  constructor(status: number, code: string, message: string, fields: Record<string, unknown> = {}) {
    super(status, code, message);
    this.fields = fields;
  }
}

/** The JSON services' answer to an authentication failure. */
export function jsonAuthError(reason: AuthFailureReason, message: string): ApiError {
  return new ApiError(403, AUTH_ERROR_CODES.json[reason], message);
}

export type JsonProtocol = "restJson1" | "awsJson1_0";

/**
 * Renders an error the way the JS SDK reads it (loadRestJsonErrorCode): the `x-amzn-ErrorType`
 * header first, then `__type`. Catalog errors have one member, `Message`; Agreement errors have
 * `message`, `requestId` and optional `reason`/`fields`.
 */
export function renderApiError(err: ApiError, protocol: JsonProtocol, requestId: string): Response {
  const body =
    protocol === "restJson1"
      ? { __type: err.code, Message: err.message, message: err.message }
      : { __type: err.code, message: err.message, requestId, ...err.fields };
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: {
      "content-type": protocol === "restJson1" ? "application/json" : "application/x-amz-json-1.0",
      "x-amzn-errortype": err.code,
      "x-amzn-requestid": requestId,
    },
  });
}

export function jsonResponse(body: unknown, protocol: JsonProtocol, requestId: string): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      "content-type": protocol === "restJson1" ? "application/json" : "application/x-amz-json-1.0",
      "x-amzn-requestid": requestId,
    },
  });
}
