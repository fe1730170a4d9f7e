import { request } from "undici";

export interface InternalCallInit {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** The whole call: connecting, the answer's head and its body. */
  timeoutMs: number;
}

/** A service's answer: its status, and its body read once (or dropped, which frees the connection). */
export interface InternalAnswer {
  status: number;
  json(): Promise<unknown>;
  text(): Promise<string>;
  discard(): Promise<void>;
}

/**
 * One call from a Flowstate process to another inside the deployment (identity-svc's pushes to the
 * doors, a write's credential re-check, the connector lookup), on undici's `request` over its
 * keep-alive global pool. Not `fetch`: its WHATWG Request, Headers, Response and web streams cost
 * ~200-300 µs of CPU more per call on this machine (a micro-benchmark, client and server in one
 * process: 300-507 against 93-196 µs per call), paid on hot paths by services that need none of it.
 * Throws when the call cannot be made or does not complete within `timeoutMs`; any status is an answer.
 *
 * @example
 * const answer = await internalCall(new URL("/internal/v1/credential-check", identityUrl), { method: "POST", headers, body, timeoutMs: 2_000 });
 * if (answer.status === 204) return;
 */
export async function internalCall(url: string | URL, init: InternalCallInit): Promise<InternalAnswer> {
  const answer = await request(url, {
    method: init.method ?? "GET",
    headers: init.headers,
    body: init.body,
    signal: AbortSignal.timeout(init.timeoutMs),
  });
  return {
    status: answer.statusCode,
    json: () => answer.body.json(),
    text: () => answer.body.text(),
    discard: () => answer.body.dump(),
  };
}
