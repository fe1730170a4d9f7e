import { newId } from "@flowstate/shared/ids/new-id";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { z } from "zod";

/**
 * The signing key set as kept in Secrets Manager (one JSON secret). Rotation without downtime is
 * expressed in time, not in steps, so every identity-svc replica reaches the same decision from the
 * same secret without coordinating:
 * - a key is PUBLISHED (in the JWKS) from creation until `retires_at`;
 * - it SIGNS from `activates_at` until a newer key activates.
 * A rotation adds a key that activates only after `activation_delay` (longer than the replicas'
 * reload interval plus the gateways' JWKS cache lifetime), so every verifier has the new public key
 * before the first token signed with it exists; the previous key retires one access-token lifetime
 * (plus skew) after the new one activates, so every token it signed still verifies until it expires.
 */
const Jwk = z.record(z.string(), z.unknown()).transform((j) => j as JWK);
export const StoredKey = z.object({
  kid: z.string(),
  private_jwk: Jwk,
  public_jwk: Jwk,
  created_at: z.iso.datetime(),
  activates_at: z.iso.datetime(),
  retires_at: z.iso.datetime().nullable(),
});
export type StoredKey = z.infer<typeof StoredKey>;
export const KeySet = z.object({ version: z.literal(1), keys: z.array(StoredKey).min(1) });
export type KeySet = z.infer<typeof KeySet>;

const at = (iso: string) => Date.parse(iso);

export async function newStoredKey(now: Date, activatesAt: Date): Promise<StoredKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = newId("key").replace(/^key_/, "sig_");
  const pub = await exportJWK(publicKey);
  return {
    kid,
    private_jwk: { ...(await exportJWK(privateKey)), kid, alg: "ES256" },
    public_jwk: { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, kid, alg: "ES256", use: "sig" },
    created_at: now.toISOString(),
    activates_at: activatesAt.toISOString(),
    retires_at: null,
  };
}

/** The key that signs at `now`: the most recently activated one that is not retired. */
export function signingKeyAt(set: KeySet, now: Date): StoredKey | undefined {
  const t = now.getTime();
  return set.keys
    .filter((k) => at(k.activates_at) <= t && (k.retires_at === null || at(k.retires_at) > t))
    .sort((a, b) => at(b.activates_at) - at(a.activates_at))[0];
}

/** The keys verifiers must know at `now`: pending ones included, retired ones gone. */
export const publishedAt = (set: KeySet, now: Date): StoredKey[] =>
  set.keys.filter((k) => k.retires_at === null || at(k.retires_at) > now.getTime());

export interface RotationTiming {
  /** How long a new key is published before it signs. */
  activationDelayMs: number;
  /** Access-token lifetime plus clock skew: how long a replaced key stays published after the switch. */
  retireAfterMs: number;
}

/**
 * The key set after one rotation at `now`. Idempotent while a rotation is in flight: if a key is
 * already waiting to activate, the set is returned unchanged (a second rotation would retire the
 * pending key before anyone used it). Keys retired before `now` are dropped.
 */
export async function rotate(
  set: KeySet,
  now: Date,
  timing: RotationTiming,
): Promise<{ set: KeySet; rotated: boolean }> {
  const t = now.getTime();
  if (set.keys.some((k) => at(k.activates_at) > t)) return { set, rotated: false };
  const next = await newStoredKey(now, new Date(t + timing.activationDelayMs));
  const retiresAt = new Date(at(next.activates_at) + timing.retireAfterMs).toISOString();
  const kept = publishedAt(set, now).map((k) => (k.retires_at === null ? { ...k, retires_at: retiresAt } : k));
  return { set: { version: 1, keys: [...kept, next] }, rotated: true };
}
