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

const SIGNATURE = /^[0-9a-f]{64}$/;
const HEADER_LIST = /^[a-z0-9-]+(;[a-z0-9-]+)*$/;
const PREFIX = "AWS4-HMAC-SHA256 ";

/**
 * Parses the SigV4 Authorization header; undefined when it is absent or not SigV4 (the caller
 * answers AWS's "missing authentication token" then). Split by hand rather than with one big
 * regex: it runs on every request and the regex showed in the profile.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 *
 * @example
 * parseAuthorization("AWS4-HMAC-SHA256 Credential=AKIA.../20260101/us-east-1/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature=ab...")
 */
export function parseAuthorization(header: string | undefined | null): SigV4Authorization | undefined {
  if (!header?.startsWith(PREFIX)) return undefined;
  let credential: string | undefined;
  let signedHeaders: string | undefined;
  let signature: string | undefined;
  for (const raw of header.slice(PREFIX.length).split(",")) {
    const part = raw.trim();
    if (part.startsWith("Credential=")) credential = part.slice(11);
    else if (part.startsWith("SignedHeaders=")) signedHeaders = part.slice(14);
    else if (part.startsWith("Signature=")) signature = part.slice(10);
    else return undefined;
  }
  if (!credential || !signedHeaders || !signature || !SIGNATURE.test(signature) || !HEADER_LIST.test(signedHeaders))
    return undefined;
  const scope = credential.split("/");
  if (scope.length !== 5 || scope[4] !== "aws4_request" || !/^\d{8}$/.test(scope[1] as string) || !scope[0])
    return undefined;
  return {
    accessKeyId: scope[0],
    date: scope[1] as string,
    region: scope[2] as string,
    service: scope[3] as string,
    signedHeaders: signedHeaders.split(";"),
    signature,
  };
}
