import type { AuthFailureReason } from "../credentials/authenticate.ts";
import { AUTH_ERROR_CODES, AwsError } from "../http/aws-error.ts";

/** An STS error answer; `type` is the awsQuery `<Error><Type>` (Sender: the caller's fault). */
export class StsError extends AwsError {
  readonly type: "Sender" | "Receiver";
  constructor(status: number, code: string, message: string, type: "Sender" | "Receiver" = "Sender") {
    super(status, code, message);
    this.type = type;
  }
}

/** STS's answer to an authentication failure; a missing signature gets AWS's fixed message. */
export function stsAuthError(reason: AuthFailureReason, message: string): StsError {
  const text = reason === "missing" ? "Request is missing Authentication Token" : message;
  return new StsError(403, AUTH_ERROR_CODES.sts[reason], text);
}

/**
 * AWS's validation message format: "1 validation error detected: Value 'x' at 'durationSeconds'
 * failed to satisfy constraint: Member must ...", errors joined with "; ".
 */
export function validationError(problems: string[]): StsError {
  const n = problems.length;
  return new StsError(
    400,
    "ValidationError",
    `${n} validation error${n === 1 ? "" : "s"} detected: ${problems.join("; ")}`,
  );
}
