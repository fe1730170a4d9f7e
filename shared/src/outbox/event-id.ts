import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `evt_` + 9 base-36 chars of milliseconds (sorts by creation time until the year 5188, handy when
 * reading logs) + 16 random base-62 chars (~95 bits). Matches `EventId` in contracts/src/ids.ts.
 */
export function newEventId(now = Date.now()): string {
  const bytes = randomBytes(16);
  let random = "";
  // 256 % 62 leaves a slight bias toward the first 8 symbols; irrelevant for uniqueness.
  for (const b of bytes) random += ALPHABET[b % 62];
  return `evt_${now.toString(36).padStart(9, "0")}${random}`;
}
