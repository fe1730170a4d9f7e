import assert from "node:assert/strict";
import { createLocalJWKSet, type JWK, jwtVerify } from "jose";
import { describe, it } from "vitest";
import { signAccessToken } from "./access-token.ts";
import { type KeySet, newStoredKey, publishedAt, rotate, signingKeyAt } from "./key-set.ts";
import { createKeyring, type Keyring } from "./keyring.ts";

const MIN = 60_000;
const timing = { activationDelayMs: 10 * MIN, retireAfterMs: 16 * MIN };
const config = { issuer: "https://id.test", audience: "flowstate-api", ttlSeconds: 900 };

/** A keyring over a fixed set, to sign at chosen instants without touching Secrets Manager. */
function keyringOf(set: KeySet): Promise<Keyring> {
  return createKeyring({ id: "fixed", load: async () => set, save: async () => {} });
}

async function verifiesAt(token: string, set: KeySet, at: Date): Promise<boolean> {
  const jwks = createLocalJWKSet({ keys: publishedAt(set, at).map((k) => k.public_jwk as JWK) });
  try {
    await jwtVerify(token, jwks, { issuer: config.issuer, audience: config.audience, currentDate: at });
    return true;
  } catch {
    return false;
  }
}

describe("signing key rotation", () => {
  it("publishes the new key before it signs, and keeps the old key published until its tokens expire", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    const initial: KeySet = { version: 1, keys: [await newStoredKey(t0, t0)] };
    const oldKid = initial.keys[0]!.kid;

    const rotatedAt = new Date(t0.getTime() + 60 * MIN);
    const { set, rotated } = await rotate(initial, rotatedAt, timing);
    assert.equal(rotated, true);
    const newKid = set.keys[1]!.kid;

    // Right after the rotation: both published, the old one still signs.
    assert.deepEqual(
      publishedAt(set, rotatedAt).map((k) => k.kid),
      [oldKid, newKid],
    );
    assert.equal(signingKeyAt(set, rotatedAt)?.kid, oldKid);

    // A token signed by the old key just before the switch...
    const justBefore = new Date(rotatedAt.getTime() + timing.activationDelayMs - 1000);
    const oldToken = (
      await signAccessToken(
        await keyringOf(set),
        config,
        { sub: "usr_a", sid: "ses_a", authTime: justBefore },
        justBefore,
      )
    ).token;

    // ...after the switch the new key signs, and the old token still verifies until it expires.
    const afterSwitch = new Date(rotatedAt.getTime() + timing.activationDelayMs);
    assert.equal(signingKeyAt(set, afterSwitch)?.kid, newKid);
    assert.equal(await verifiesAt(oldToken, set, new Date(justBefore.getTime() + 899_000)), true);
    const newToken = (
      await signAccessToken(
        await keyringOf(set),
        config,
        { sub: "usr_a", sid: "ses_a", authTime: afterSwitch },
        afterSwitch,
      )
    ).token;
    assert.equal(await verifiesAt(newToken, set, afterSwitch), true);

    // Once retired, the old key leaves the JWKS (its tokens have expired by then anyway).
    const retired = new Date(afterSwitch.getTime() + timing.retireAfterMs);
    assert.deepEqual(
      publishedAt(set, retired).map((k) => k.kid),
      [newKid],
    );
  });

  it("does nothing while a rotation is still waiting to activate", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    const first = await rotate({ version: 1, keys: [await newStoredKey(t0, t0)] }, t0, timing);
    const second = await rotate(first.set, new Date(t0.getTime() + MIN), timing);
    assert.equal(second.rotated, false);
    assert.equal(second.set.keys.length, 2);
  });

  it("drops keys that retired before a later rotation", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    const a = await rotate({ version: 1, keys: [await newStoredKey(t0, t0)] }, t0, timing);
    const b = await rotate(a.set, new Date(t0.getTime() + 120 * MIN), timing);
    assert.equal(b.rotated, true);
    assert.equal(b.set.keys.length, 2, "the first key retired long ago and is gone");
    assert.equal(b.set.keys[0]!.kid, a.set.keys[1]!.kid);
  });
});
