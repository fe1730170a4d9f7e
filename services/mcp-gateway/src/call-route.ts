import type { Gateway } from "@flowstate/edge-gateway/pipeline";
import type { RestRequest, ToolSpec } from "./tools/tool.ts";

export interface RouteAnswer {
  status: number;
  body: unknown;
  requestId: string | undefined;
}

/** The longest a tool call waits for its route (longer work returns a handle to poll instead). */
const CALL_TIMEOUT_MS = 15_000;

/**
 * Sends a tool's REST request through the pipeline (pipeline.ts) with the caller's own
 * Authorization header, exactly as a REST client would send it to the edge gateway, but in
 * process (`gateway.call`): the same route path, without a loopback socket, so a call costs no
 * HTTP round trip (ADR 0007). `address` is the MCP caller's, for the per-client rate limit.
 */
export async function callRoute(
  gateway: Pick<Gateway, "call">,
  tool: ToolSpec,
  request: RestRequest,
  caller: { authorization: string; requestId: string; address: string },
): Promise<RouteAnswer> {
  const url = new URL(request.path, "http://pipeline.local");
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const hasBody = request.body !== undefined;
  // Past CALL_TIMEOUT_MS the call is abandoned as a client gives up (the relay is cut) and the tool
  // answers a generic error. Above the pipeline's relay timeout (UPSTREAM_TIMEOUT_MS, 10 s by
  // default), so a slow service comes back as the pipeline's 503 UPSTREAM_UNAVAILABLE rather than
  // an abort here. A timer cleared with the answer, not AbortSignal.timeout: that one lives its full
  // 15 s and keeps what listens to it (the call's relay) alive that long after every answer.
  const abandon = new AbortController();
  const timer = setTimeout(
    () => abandon.abort(new DOMException("tool call timed out", "TimeoutError")),
    CALL_TIMEOUT_MS,
  );
  const res = await gateway
    .call({
      method: tool.route.method,
      target: url.pathname + url.search,
      headers: {
        ...definedHeaders(request.headers),
        authorization: caller.authorization,
        "x-request-id": caller.requestId,
        ...(hasBody ? { "content-type": "application/json" } : {}),
      },
      body: hasBody ? Buffer.from(JSON.stringify(request.body)) : undefined,
      address: caller.address,
      signal: abandon.signal,
    })
    .finally(() => clearTimeout(timer));
  let body: unknown = null;
  try {
    body = res.body.length ? JSON.parse(res.body.toString("utf8")) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body, requestId: res.headers["x-request-id"] };
}

/** Header names in lower case (the pipeline's), without the unset ones. */
const definedHeaders = (headers: RestRequest["headers"]) =>
  Object.fromEntries(
    Object.entries(headers ?? {})
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => [k.toLowerCase(), v]),
  );
