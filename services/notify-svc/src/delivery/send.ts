import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { AddressRefused, pinnedLookup, resolvePublicAddress } from "@flowstate/shared/net/public-address";
import type { DeliverySettings } from "../deps.ts";

export type Attempt =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: "timeout" | "unreachable" | "redirect" | "status" | string };

/**
 * One POST to an endpoint: the host resolved and checked again (a public address only, pinned for
 * the connection so DNS cannot change it in between), no redirect followed (a 3xx is a failure),
 * the whole exchange cut at `timeoutMs` (5 s), the answer's body read and dropped. A 2xx is a
 * delivery; anything else is an error word for the log, never the receiver's text.
 */
export async function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  s: Pick<DeliverySettings, "allowHttp" | "allowedAddresses" | "timeoutMs">,
): Promise<Attempt> {
  const http = url.protocol === "http:";
  if (!(url.protocol === "https:" || (http && s.allowHttp)))
    return { ok: false, status: null, error: "https_required" };
  let lookup: ReturnType<typeof pinnedLookup>;
  try {
    lookup = pinnedLookup(await resolvePublicAddress(url.hostname, s.allowedAddresses));
  } catch (err) {
    if (err instanceof AddressRefused) return { ok: false, status: null, error: err.reason };
    throw err;
  }
  const request = http ? httpRequest : httpsRequest;
  return new Promise<Attempt>((resolve) => {
    const req = request(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      lookup,
      agent: false,
      signal: AbortSignal.timeout(s.timeoutMs),
    });
    req.once("error", (err) =>
      resolve({ ok: false, status: null, error: err.name === "AbortError" ? "timeout" : "unreachable" }),
    );
    req.once("response", (res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      res.once("end", () => {
        if (status >= 200 && status < 300) resolve({ ok: true, status });
        else resolve({ ok: false, status, error: status >= 300 && status < 400 ? "redirect" : "status" });
      });
      res.once("error", () => resolve({ ok: false, status, error: "unreachable" }));
    });
    req.end(body);
  });
}
