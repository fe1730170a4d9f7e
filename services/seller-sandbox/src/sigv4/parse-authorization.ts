/** The parts of an `Authorization: AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...` header. */
export interface SigV4Authorization {
  accessKeyId: string;
  /** YYYYMMDD of the credential scope. */
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

const PATTERN =
  /^AWS4-HMAC-SHA256\s+Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request\s*,\s*SignedHeaders=([a-z0-9;._-]+)\s*,\s*Signature=([0-9a-f]{64})\s*$/;

/**
 * Parses the SigV4 Authorization header; undefined when it is absent or not SigV4 (the caller
 * answers AWS's "missing authentication token" then). One regex, no allocation beyond the result,
 * because it runs on every request. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 *
 * @example
 * parseAuthorization("AWS4-HMAC-SHA256 Credential=AKIA.../20260101/us-east-1/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature=ab...")
 */
export function parseAuthorization(header: string | undefined | null): SigV4Authorization | undefined {
  if (!header) return undefined;
  const m = PATTERN.exec(header);
  if (!m) return undefined;
  return {
    accessKeyId: m[1] as string,
    date: m[2] as string,
    region: m[3] as string,
    service: m[4] as string,
    signedHeaders: (m[5] as string).split(";"),
    signature: m[6] as string,
  };
}
