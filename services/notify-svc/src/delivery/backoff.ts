/**
 * The wait before retry number `attempts` (1 after the first failure): `base` doubling up to
 * `max`, ±20 % jitter so endpoints that failed together do not retry together. With production's
 * 5 s and 1 h that is 5 s, 10 s, 20 s, … then hourly until the 24 h window closes.
 */
export function backoffMs(attempts: number, base: number, max: number, random = Math.random): number {
  const plain = Math.min(max, base * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  return Math.round(plain * (0.8 + 0.4 * random()));
}
