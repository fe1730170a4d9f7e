import { IncomingMessage, type ServerResponse } from "node:http";
import { recordRequest, writeProblem } from "@flowstate/shared/http/access-log";
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
import { proxyRoute, type RouteDeps } from "../routing/proxy-route.ts";
import type { RouteMatch, RouteTable } from "../routing/route-table.ts";
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
 * In-process `app.request()` calls have no Node request and only reach the platform app.
 */
export function gatewayFetch(options: GatewayFetchOptions) {
  const { app, table, deps, logger, metrics } = options;
  const labels = new Map<object, string>();

  async function serveRoute(
    match: RouteMatch | { allow: string },
    request: Request,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
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
      const url = request.url;
      const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
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
  }

  return function fetch(request: Request, env?: Partial<HttpBindings>): Response | Promise<Response> {
    const req = env?.incoming;
    const res = env?.outgoing;
    if (!(req instanceof IncomingMessage) || res === undefined) return app.fetch(request, env);
    const path = getPath(request);
    const match = table.match(req.method!, path);
    if (match === null) return app.fetch(request, env);
    return serveRoute(match, request, req, res as ServerResponse, path);
  };
}
