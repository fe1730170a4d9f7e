import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, SourceData } from "@smithy/types";

const toBytes = (d: SourceData) => (typeof d === "string" ? d : new Uint8Array(ArrayBuffer.isView(d) ? d.buffer : d));

/** node:crypto behind the hash interface the SDK's signer expects. */
export class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac("sha256", toBytes(secret)) : createHash("sha256");
  }
  update(data: Uint8Array | string) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {}
}

/**
 * Sends a raw request signed with the SDK's own SigV4 signer, for what the SDK clients will not
 * send (malformed JSON, missing members). Returns the status, the error type header and the body.
 *
 * @example
 * const r = await signedFetch(endpoint, creds, { method: "POST", path: "/StartChangeSet", body: "{not json" });
 */
export async function signedFetch(
  endpoint: string,
  credentials: AwsCredentialIdentity,
  req: {
    method: string;
    path: string;
    body?: string;
    headers?: Record<string, string>;
    service?: string;
    query?: Record<string, string>;
  },
): Promise<{ status: number; errorType: string | null; body: string }> {
  const url = new URL(endpoint);
  const signer = new SignatureV4({
    credentials,
    region: "us-east-1",
    service: req.service ?? "aws-marketplace",
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: req.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: req.path,
    query: req.query ?? {},
    headers: { host: url.host, "content-type": "application/json", ...req.headers },
    body: req.body,
  });
  const qs = new URLSearchParams(req.query ?? {}).toString();
  const res = await fetch(`${endpoint}${req.path}${qs ? `?${qs}` : ""}`, {
    method: req.method,
    headers: signed.headers,
    body: req.body,
  });
  return { status: res.status, errorType: res.headers.get("x-amzn-errortype"), body: await res.text() };
}
