import { request } from "node:https";
import {
  AddressRefused,
  pinnedLookup,
  type ResolvedAddress,
  resolvePublicAddress,
} from "@flowstate/shared/net/public-address";

export interface FetchLimits {
  /** Addresses exempt from the special-use refusal. Empty in production (see fetcher.ts). */
  allowedAddresses: ReadonlySet<string>;
  /** Replaces the trusted CAs (tests only); otherwise Node's store plus NODE_EXTRA_CA_CERTS. */
  ca?: string | undefined;
  maxBytes: number;
  timeoutMs: number;
}

/** Why a document could not be used; a stable word for logs and the error page, never upstream text. */
export class CimdError extends Error {
  override name = "CimdError";
  readonly reason: string;
  constructor(reason: string) {
    super(`client metadata document refused: ${reason}`);
    this.reason = reason;
  }
}

export interface Fetched {
  body: string;
  cacheControl: string | undefined;
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The host's checked address (shared/src/net/public-address.ts), its refusal as the CIMD reason. */
async function checkedAddress(hostname: string, limits: FetchLimits): Promise<ResolvedAddress> {
  try {
    return await resolvePublicAddress(hostname, limits.allowedAddresses);
  } catch (err) {
    throw err instanceof AddressRefused ? new CimdError(err.reason) : err;
  }
}

/**
 * GET of a metadata document under the draft's fetch rules: the host is resolved first and every
 * address checked, and the connection goes to the checked address (a pinned lookup, so a DNS
 * answer that changes between check and connect, "DNS rebinding", cannot redirect it); only a 200
 * counts, redirects are not followed, the media type must be JSON, the body is cut off past
 * `maxBytes` (the draft recommends 5 KB) and the whole exchange past `timeoutMs`. TLS is verified
 * against the URL's host as usual.
 */
export async function fetchDocument(url: URL, limits: FetchLimits): Promise<Fetched> {
  const lookup = pinnedLookup(await checkedAddress(url.hostname, limits));
  return new Promise<Fetched>((resolve, reject) => {
    const req = request(url, {
      method: "GET",
      headers: { accept: "application/json" },
      lookup,
      agent: false,
      ...(limits.ca ? { ca: limits.ca } : {}),
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    req.once("error", (err) =>
      reject(err instanceof CimdError ? err : new CimdError(err.name === "AbortError" ? "timeout" : "unreachable")),
    );
    req.once("response", (res) => {
      const fail = (reason: string) => {
        res.destroy();
        reject(new CimdError(reason));
      };
      if (res.statusCode !== 200) return fail(res.statusCode! >= 300 && res.statusCode! < 400 ? "redirect" : "status");
      if (!JSON_MEDIA.test(res.headers["content-type"] ?? "")) return fail("content_type");
      if (Number(res.headers["content-length"] ?? 0) > limits.maxBytes) return fail("too_large");
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) fail("too_large");
        else chunks.push(chunk);
      });
      res.once("end", () =>
        resolve({ body: Buffer.concat(chunks).toString("utf8"), cacheControl: res.headers["cache-control"] }),
      );
      res.once("error", () => reject(new CimdError("unreachable")));
    });
    req.end();
  });
}
