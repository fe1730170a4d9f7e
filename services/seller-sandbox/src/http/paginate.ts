import { createHash } from "node:crypto";

/** A stable digest of the request minus its paging members: a token only continues its own query. */
export function queryFingerprint(input: Record<string, unknown>, omit: string[]): string {
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !omit.includes(k)));
  return createHash("sha256").update(JSON.stringify(rest)).digest("base64url").slice(0, 16);
}

/**
 * Offset pagination with opaque tokens (`base64url({o, h})`). A token from another query, or one
 * that is not ours, makes `onInvalid` throw the protocol's error.
 *
 * @example
 * const { page, nextToken } = paginate(items, { token: input.NextToken, max: 20, fingerprint, onInvalid });
 */
export function paginate<T>(
  items: readonly T[],
  options: { token: string | undefined; max: number; fingerprint: string; onInvalid: () => never },
): { page: T[]; nextToken?: string } {
  let offset = 0;
  if (options.token !== undefined) {
    try {
      const decoded = JSON.parse(Buffer.from(options.token, "base64url").toString("utf8")) as {
        o?: unknown;
        h?: unknown;
      };
      if (typeof decoded.o !== "number" || decoded.h !== options.fingerprint || decoded.o < 0) options.onInvalid();
      offset = decoded.o as number;
    } catch {
      options.onInvalid();
    }
  }
  const page = items.slice(offset, offset + options.max);
  const next = offset + options.max;
  if (next >= items.length) return { page };
  return { page, nextToken: Buffer.from(JSON.stringify({ o: next, h: options.fingerprint })).toString("base64url") };
}
