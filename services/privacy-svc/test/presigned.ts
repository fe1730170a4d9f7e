import { createHash, createHmac } from "node:crypto";

const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
const uriEscape = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks a presigned S3 GET the way S3 does (SigV4 query authentication): the signature over the
 * canonical request must match, and the URL is valid only until X-Amz-Date + X-Amz-Expires.
 * moto 5.2 serves presigned URLs without checking either (its S3 checks signatures only in its
 * IAM-auth mode), so the URL-lifetime test asks this instead, written from the SigV4 spec
 * (docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html), not from the SDK.
 */
export function presignedUrlValid(
  url: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  now = new Date(),
): { valid: boolean; reason?: string } {
  const u = new URL(url);
  const q = u.searchParams;
  const amzDate = q.get("X-Amz-Date") ?? "";
  const expires = Number(q.get("X-Amz-Expires"));
  const [accessKey, date, region, service] = (q.get("X-Amz-Credential") ?? "").split("/");
  if (accessKey !== credentials.accessKeyId) return { valid: false, reason: "unknown access key" };
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  if (now.getTime() > signedAt + expires * 1000) return { valid: false, reason: "expired" };
  const query = [...q.entries()]
    .filter(([k]) => k !== "X-Amz-Signature")
    .map(([k, v]) => `${uriEscape(k)}=${uriEscape(v)}`)
    .sort()
    .join("&");
  const canonical = ["GET", u.pathname, query, `host:${u.host}\n`, "host", "UNSIGNED-PAYLOAD"].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, date!);
  for (const part of [region!, service!, "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  return signature === q.get("X-Amz-Signature") ? { valid: true } : { valid: false, reason: "bad signature" };
}
