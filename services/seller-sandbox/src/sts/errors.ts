import type { AuthFailureReason } from "../credentials/authenticate.ts";

/** An STS error answer: HTTP status, `Error.Code`, message. */
export class StsError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: "Sender" | "Receiver";
  constructor(status: number, code: string, message: string, type: "Sender" | "Receiver" = "Sender") {
    super(message);
    this.status = status;
    this.code = code;
    this.type = type;
  }
}

/** STS's own names for authentication failures (they differ from the JSON services'). */
export function stsAuthError(reason: AuthFailureReason, message: string): StsError {
  switch (reason) {
    case "missing":
      return new StsError(403, "MissingAuthenticationToken", "Request is missing Authentication Token");
    case "unknown-key":
      return new StsError(403, "InvalidClientTokenId", message);
    case "expired":
      return new StsError(403, "ExpiredToken", message);
    default:
      return new StsError(403, "SignatureDoesNotMatch", message);
  }
}

/**
 * AWS's validation message format: "1 validation error detected: Value 'x' at 'durationSeconds'
 * failed to satisfy constraint: Member must ...", errors joined with "; ".
 */
export function validationError(problems: string[]): StsError {
  const n = problems.length;
  return new StsError(400, "ValidationError", `${n} validation error${n === 1 ? "" : "s"} detected: ${problems.join("; ")}`);
}
