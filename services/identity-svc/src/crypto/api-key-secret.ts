import { randomSecret } from "./secret-token.ts";

/**
 * API key format: `fs_<key id suffix>_<43 base64url chars>`. The part before the secret names the
 * key (`key_<suffix>`), so verification is one primary-key lookup plus a hash comparison, and the
 * non-secret `prefix` (`fs_<suffix>`) lets people recognise a key in the list and in secret
 * scanners. The suffix is base62 (no `_`), so the first `_` after `fs_` ends it.
 */
const FORMAT = /^fs_([0-9A-Za-z]{10,40})_([A-Za-z0-9_-]{43})$/;

export function newApiKeySecret(keyId: string): { secret: string; prefix: string } {
  const suffix = keyId.slice("key_".length);
  return { secret: `fs_${suffix}_${randomSecret()}`, prefix: `fs_${suffix}` };
}

/** The key id a presented secret claims to be, or null when it is not shaped like one of ours. */
export function keyIdOf(secret: string): string | null {
  const m = FORMAT.exec(secret);
  return m ? `key_${m[1]}` : null;
}

export const prefixOf = (keyId: string): string => `fs_${keyId.slice("key_".length)}`;
