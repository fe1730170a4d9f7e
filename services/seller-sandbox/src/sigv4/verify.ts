import { createHmac, hash, timingSafeEqual } from "node:crypto";
import type { SigV4Authorization } from "./parse-authorization.ts";

/** What the verifier needs of an HTTP request, as it arrived. */
export interface ReceivedRequest {
  method: string;
  /** Path as sent on the wire (still percent-encoded), without the query. */
  rawPath: string;
  /** Query string as sent, without `?`. */
  rawQuery: string;
  header(name: string): string | undefined;
  body: Uint8Array;
}

// RFC 3986 unreserved characters stay; everything else is %XX, as the SDK's escapeUri does.
function escapeUri(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return "";
  const pairs: string[] = [];
  for (const part of rawQuery.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = escapeUri(safeDecode(eq < 0 ? part : part.slice(0, eq)));
    if (key === "X-Amz-Signature") continue;
    pairs.push(`${key}=${escapeUri(safeDecode(eq < 0 ? "" : part.slice(eq + 1)))}`);
  }
  return pairs.sort().join("&");
}

// Non-S3 services sign the path encoded a second time (the SDK's uriEscapePath default).
function canonicalPath(rawPath: string): string {
  if (rawPath === "/" || rawPath === "") return "/";
  return rawPath
    .split("/")
    .map((segment) => escapeUri(segment))
    .join("/");
}

type Pads = { inner: Uint8Array; outer: Uint8Array };
const keyCache = new Map<string, Pads>();

/**
 * The derived signing key as HMAC's padded blocks (RFC 2104): HMAC(k, m) = H(k^opad || H(k^ipad || m)).
 * Two one-shot hashes per request cost far less than createHmac, whose key checks dominated the
 * sandbox's profile.
 */
function signingPads(secret: string, auth: SigV4Authorization): Pads {
  const cacheKey = `${secret}\n${auth.date}\n${auth.region}\n${auth.service}`;
  const cached = keyCache.get(cacheKey);
  if (cached) return cached;
  const kDate = createHmac("sha256", `AWS4${secret}`).update(auth.date).digest();
  const kRegion = createHmac("sha256", kDate).update(auth.region).digest();
  const kService = createHmac("sha256", kRegion).update(auth.service).digest();
  const key = createHmac("sha256", kService).update("aws4_request").digest();
  const block = Buffer.alloc(64);
  key.copy(block);
  const pads = { inner: block.map((b) => b ^ 0x36), outer: block.map((b) => b ^ 0x5c) };
  if (keyCache.size > 5_000) keyCache.clear();
  keyCache.set(cacheKey, pads);
  return pads;
}

function hmacSha256(pads: Pads, message: string): Buffer {
  const inner = hash("sha256", Buffer.concat([pads.inner, Buffer.from(message)]), "buffer");
  return hash("sha256", Buffer.concat([pads.outer, inner]), "buffer");
}

/**
 * Recomputes the SigV4 signature of a received request with the secret the sandbox holds for its
 * access key and compares it in constant time. Costs four SHA-256 per request (the derived
 * signing key is cached per secret, day, region and service).
 *
 * @example
 * if (!verifySignature(received, auth, secret)) return signatureMismatch();
 */
export function verifySignature(req: ReceivedRequest, auth: SigV4Authorization, secret: string): boolean {
  const amzDate = req.header("x-amz-date");
  if (!amzDate?.startsWith(auth.date)) return false;
  const headerLines: string[] = [];
  for (const name of auth.signedHeaders) {
    const value = req.header(name);
    if (value === undefined) return false;
    headerLines.push(`${name}:${value.trim().replace(/\s+/g, " ")}\n`);
  }
  // The SDK's signer also sends the payload hash as x-amz-content-sha256; it must match the body
  // that arrived, or a tampered body would verify.
  const payloadHash = hash("sha256", req.body, "hex");
  const claimed = req.header("x-amz-content-sha256");
  if (claimed !== undefined && claimed !== payloadHash) return false;
  const canonical = [
    req.method.toUpperCase(),
    canonicalPath(req.rawPath),
    canonicalQuery(req.rawQuery),
    headerLines.join(""),
    auth.signedHeaders.join(";"),
    payloadHash,
  ].join("\n");
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hash("sha256", canonical, "hex")}`;
  const expected = hmacSha256(signingPads(secret, auth), stringToSign);
  const given = Buffer.from(auth.signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
