import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

/**
 * A real ES256 signing key for tests, with helpers to mint access tokens shaped like identity-svc's
 * (sub, sid, iat, exp, iss, aud; kid and typ at+jwt in the header). Claims can be overridden to mint bad ones.
 */
export async function testSigningKey(kid = `k_${Math.random().toString(36).slice(2)}`) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return {
    kid,
    jwk,
    sign: (
      claims: Record<string, unknown>,
      options: { alg?: string; typ?: string; lifetimeSec?: number; iat?: number } = {},
    ) => {
      const iat = options.iat ?? Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: options.alg ?? "ES256", kid, typ: options.typ ?? "at+jwt" })
        .setIssuedAt(iat)
        .setExpirationTime(iat + (options.lifetimeSec ?? 600))
        .sign(privateKey);
    },
  };
}

export const randomId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
