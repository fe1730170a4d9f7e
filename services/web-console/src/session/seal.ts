import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Sealing at rest and the console's own MACs, from one 256-bit key (Secrets Manager). Tokens and
 * PKCE verifiers are sealed with AES-256-GCM (random 96-bit nonce, the row's key as associated
 * data); CSRF tokens are HMACs of the session id, so nothing about them is stored.
 */
export interface Sealer {
  seal(plain: string, context: string): Buffer;
  /** The plain text, or null when the value was not sealed by this key for this context. */
  open(sealed: Buffer, context: string): string | null;
  /** A MAC of `value` for `purpose` (base64url): the CSRF tokens. */
  mac(purpose: string, value: string): string;
}

/**
 * @example
 * const sealer = createSealer(Buffer.from(secret, "base64url"));
 * sealer.open(sealer.seal("token", "ctx"), "ctx") // "token"
 */
export function createSealer(key: Buffer): Sealer {
  if (key.length < 32) throw new Error("the session key must hold at least 256 bits");
  const encryption = createHash("sha256").update("flowstate web-console seal\0").update(key).digest();
  const authentication = createHash("sha256").update("flowstate web-console mac\0").update(key).digest();
  const mac = (purpose: string, value: string) =>
    createHmac("sha256", authentication).update(`${purpose}\0${value}`).digest("base64url");
  return {
    seal(plain, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", encryption, nonce);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([nonce, cipher.getAuthTag(), body]);
    },
    open(sealed, context) {
      if (sealed.length < 28) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", encryption, sealed.subarray(0, 12));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(sealed.subarray(12, 28));
        return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
    mac,
  };
}

/** 256 random bits, base64url: session ids, OAuth state, PKCE verifiers. */
export const randomToken = () => randomBytes(32).toString("base64url");
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/** Two tokens compared in constant time (a CSRF token against the page's). */
export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
