import type { RestRequest, ToolSpec } from "./tools/tool.ts";

export interface RouteAnswer {
  status: number;
  body: unknown;
  requestId: string | undefined;
}

/**
 * Sends a tool's REST request through the pipeline (pipeline.ts) with the caller's own
 * Authorization header, exactly as a REST client would send it to the edge gateway.
 */
export async function callRoute(
  pipelineUrl: string,
  tool: ToolSpec,
  request: RestRequest,
  authorization: string,
  requestId: string,
): Promise<RouteAnswer> {
  const url = new URL(request.path, pipelineUrl);
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const hasBody = request.body !== undefined;
  const res = await fetch(url, {
    method: tool.route.method,
    headers: {
      ...definedHeaders(request.headers),
      authorization,
      "x-request-id": requestId,
      ...(hasBody ? { "content-type": "application/json" } : {}),
    },
    ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
    // Above the pipeline's relay timeout (UPSTREAM_TIMEOUT_MS, 10 s by default), so a slow service
    // comes back as the pipeline's 503 UPSTREAM_UNAVAILABLE rather than an abort here.
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body, requestId: res.headers.get("x-request-id") ?? undefined };
}

const definedHeaders = (headers: RestRequest["headers"]) =>
  Object.fromEntries(Object.entries(headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
