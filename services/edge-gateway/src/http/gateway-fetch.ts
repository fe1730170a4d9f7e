import { IncomingMessage, type ServerResponse } from "node:http";
import { type ResponseSink, recordRequest, writeProblem } from "@flowstate/shared/http/access-log";
import type { ServiceApp } from "@flowstate/shared/http/app";
import { HttpProblem } from "@flowstate/shared/http/http-problem";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import { UNMATCHED_ROUTE } from "@flowstate/shared/http/request-context";
import { requestIdFrom } from "@flowstate/shared/http/request-id";
import { honoPath } from "@flowstate/shared/http/route-book";
import type { Logger } from "@flowstate/shared/log/logger";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { getPath } from "hono/utils/url";
import { type InboundRequest, proxyRoute, type RouteDeps } from "../routing/proxy-route.ts";
import type { RouteMatch, RouteTable } from "../routing/route-table.ts";
import { type LocalAnswer, LocalIncoming, type LocalRequest, LocalResponse } from "./local-call.ts";
import { OWN_ANSWER_HEADERS } from "./security-headers.ts";

export interface GatewayFetchOptions {
  /** The platform app: probes, /metrics, /openapi.json, /docs, and the 404 for everything unknown. */
  app: ServiceApp;
  table: RouteTable;
  deps: RouteDeps;
  logger: Logger;
  metrics: MetricsRegistry;
}

/**
 * The gateway's `fetch` for @hono/node-server. Registry routes take a direct path: the Node
 * request is streamed to the service and the answer written onto the Node response, skipping
 * Hono's Request/Response objects and middleware chain; a prototype measured that hop at ~45 µs
 * of CPU per request against ~130 µs through Hono (ADR 0008, README "Performance"). What the
 * shared requestContext middleware does for other routes is done here with the same helpers: the
 * request id (requestIdFrom), the access record (recordRequest: one log line, one metric) and
 * problem+json for every refusal (writeProblem, the services' mapError and problemBody).
 *
 * The path is taken from node-server's own Request URL (already normalised: dot segments,
 * unusual characters) and decoded with Hono's getPath, exactly as the service's Hono will see it,
 * so the signed assertion binds the path the service verifies.
 *
 * In-process `app.request()` calls have no Node request and only reach the platform app; `call`
 * (below) is the in-process way to a registry route.
 */
export function gatewayFetch(options: GatewayFetchOptions) {
  const { app, table } = options;
  const serveRoute = routeServer(options);

  function fetch(request: Request, env?: Partial<HttpBindings>): Response | Promise<Response> {
    const req = env?.incoming;
    const res = env?.outgoing;
    if (!(req instanceof IncomingMessage) || res === undefined) return app.fetch(request, env);
    const path = getPath(request);
    const match = table.match(req.method!, path);
    if (match === null) return app.fetch(request, env);
    const url = request.url;
    return serveRoute(match, req, res as ServerResponse, path, url.slice(url.indexOf("/", url.indexOf("//") + 2)));
  }

  /**
   * A registry route called in process (mcp-gateway's tool calls): the same route path as
   * `fetch` (request id, authentication and revocation, tenant and role, flag, rate limits, the
   * signed assertion, the relay, problem answers, the access record), with no socket on either
   * side. The target is normalised as an HTTP client and node-server would (WHATWG URL), so the
   * assertion binds the path the service will see. Anything not in the registry is answered by
   * the platform app, as over HTTP.
   */
  async function call(request: LocalRequest): Promise<LocalAnswer> {
    request.signal?.throwIfAborted();
    const parsed = new URL(request.target, LOCAL_ORIGIN);
    // "//host/…" would name another origin: a target is a path, never somewhere to send the caller's credential.
    if (parsed.origin !== LOCAL_ORIGIN) throw new Error(`not a path: ${request.target}`);
    const url = parsed.href;
    const path = getPath(new Request(url));
    const match = table.match(request.method, path);
    if (match === null) {
      const answer = await app.fetch(
        new Request(url, {
          method: request.method,
          headers: request.headers,
          body: request.body ? new Uint8Array(request.body) : null,
        }),
      );
      return {
        status: answer.status,
        headers: Object.fromEntries(answer.headers),
        body: Buffer.from(await answer.arrayBuffer()),
      };
    }
    const res = new LocalResponse(request.signal);
    void serveRoute(match, new LocalIncoming(request), res, path, url.slice(LOCAL_ORIGIN.length));
    return res.answer;
  }

  return Object.assign(fetch, { call });
}

/** The origin in-process targets are resolved against; it reaches no service (Host is never forwarded). */
const LOCAL_ORIGIN = "http://pipeline.local";

/** One registry route end to end on a Node response or an in-process one (see gatewayFetch). */
function routeServer(options: GatewayFetchOptions) {
  const { deps, logger, metrics } = options;
  const labels = new Map<object, string>();

  return async function serveRoute(
    match: RouteMatch | { allow: string },
    req: InboundRequest,
    res: ResponseSink,
    path: string,
    target: string,
  ) {
    const started = performance.now();
    const header = req.headers["x-request-id"];
    const requestId = requestIdFrom(typeof header === "string" ? header : undefined);
    let route = UNMATCHED_ROUTE;
    let status: number;
    let error: unknown;
    try {
      if ("allow" in match) {
        throw new HttpProblem("METHOD_NOT_ALLOWED", `${req.method} is not allowed here; allowed: ${match.allow}`, {
          headers: { allow: match.allow },
        });
      }
      route = labels.get(match.route) ?? honoPath(match.route.path);
      labels.set(match.route, route);
      status = await proxyRoute({ ...match, req, res, requestId, path, target }, deps);
    } catch (err) {
      error = err;
      // Merged by Node into the problem's head (a refusal is never cached, and carries HSTS and nosniff).
      if (!res.headersSent) for (const name in OWN_ANSWER_HEADERS) res.setHeader(name, OWN_ANSWER_HEADERS[name]!);
      status = writeProblem(res, err, requestId);
    }
    // A relayed success is logged by the owning service under the same request id (and counted in
    // /metrics here), so the gateway's line is debug; every refusal and failure is its own to report.
    recordRequest(logger, metrics, { requestId, method: req.method!, route, status, started, error }, "debug");
    return RESPONSE_ALREADY_SENT;
  };
}
