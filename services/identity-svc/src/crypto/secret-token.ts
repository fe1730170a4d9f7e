import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * High-entropy bearer secrets (refresh tokens, API keys) are stored only as SHA-256 hashes. A fast
 * hash is right here, unlike for passwords: the input has 256 random bits, so there is nothing to
 * brute-force, and the lookup must be cheap on every request.
 */
export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");

/** 32 random bytes, base64url (43 characters). */
export const randomSecret = (): string => randomBytes(32).toString("base64url");

/** A refresh token: `rt_` + 256 random bits. */
export const newRefreshToken = (): string => `rt_${randomSecret()}`;

/** Constant-time equality of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
