import { randomInt } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A prefixed random id (`usr_…`, `tnt_…`, `ses_…`, `key_…`): 22 base62 characters, about 131 bits,
 * so ids are unguessable as well as unique. A `sub` is therefore opaque and says nothing about
 * the person (never derived from an e-mail).
 *
 * @example
 * newId("usr") // "usr_4fN0c1Qk2m9ZpXbT7yWq3L"
 */
export function newId(prefix: "usr" | "tnt" | "ses" | "key"): string {
  let s = "";
  for (let i = 0; i < 22; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}_${s}`;
}
