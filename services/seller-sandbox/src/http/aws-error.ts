import type { AuthFailureReason } from "../credentials/authenticate.ts";

/**
 * An error answer in any protocol the sandbox speaks: HTTP status, the code the SDK raises as
 * `err.name`, and the message. Each protocol subclasses it with what its wire shape adds.
 */
export class AwsError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * The code of each authentication failure, per protocol family: STS (awsQuery) names them
 * differently from the JSON services (Catalog, Agreement). A credential scoped to another region
 * is a signature failure in both, as on AWS.
 */
export const AUTH_ERROR_CODES = {
  json: {
    missing: "MissingAuthenticationTokenException",
    "unknown-key": "UnrecognizedClientException",
    expired: "ExpiredTokenException",
    "bad-signature": "InvalidSignatureException",
    "wrong-scope": "InvalidSignatureException",
  },
  sts: {
    missing: "MissingAuthenticationToken",
    "unknown-key": "InvalidClientTokenId",
    expired: "ExpiredToken",
    "bad-signature": "SignatureDoesNotMatch",
    "wrong-scope": "SignatureDoesNotMatch",
  },
} as const satisfies Record<string, Record<AuthFailureReason, string>>;
