import type { OutgoingHttpHeaders } from "node:http";
import { PROBLEM_CONTENT_TYPE } from "@flowstate/contracts/errors/problem";
import type { Logger } from "../log/logger.ts";
import { mapError } from "./error-handler.ts";
import { HttpProblem } from "./http-problem.ts";
import type { MetricsRegistry } from "./metrics.ts";
import { problemBody } from "./problem.ts";

/**
 * Probes are logged at debug: at info they would drown the useful lines. So are the door lease
 * renewals identity-svc receives, a heartbeat per gateway instance per second (ADR 0011).
 */
const PROBES = new Set(["/healthz", "/readyz", "/metrics", "/internal/v1/doors/:instance"]);

export interface FinishedRequest {
  requestId: string;
  method: string;
  /** The route template (`/v1/tenants/:id`), never the raw path: bounded metric cardinality. */
  route: string;
  status: number;
  /** `performance.now()` when the request arrived. */
  started: number;
  /** What was thrown, if anything (the cause of a 5xx is logged with it). */
  error?: unknown;
}

/**
 * The one access record of a request, for every service (requestContext) and the gateway's direct
 * path (gateway-fetch.ts): one metric observation and one log line. Levels: an exception behind a
 * 5xx is an error, logged with its cause; a deliberate 5xx (readiness, an HttpProblem) a warning;
 * a 4xx info (a client's mistake, not an error); a success info, or `successLevel` (the gateway
 * logs relayed successes at debug, the owning service logs them under the same request id), and
 * probes debug.
 *
 * @example
 * recordRequest(logger, metrics, { requestId, method: "GET", route: "/v1/tenants/:id", status: 200, started });
 */
export function recordRequest(
  logger: Logger,
  metrics: MetricsRegistry,
  r: FinishedRequest,
  successLevel: "info" | "debug" = "info",
): void {
  const seconds = (performance.now() - r.started) / 1000;
  metrics.observeRequest(r.method, r.route, r.status, seconds);
  const failed = r.error !== undefined && !(r.error instanceof HttpProblem);
  const level =
    r.status >= 500
      ? failed
        ? "error"
        : "warn"
      : r.status >= 400
        ? "info"
        : PROBES.has(r.route)
          ? "debug"
          : successLevel;
  if (!logger.isLevelEnabled(level)) return;
  const line = {
    request_id: r.requestId,
    method: r.method,
    route: r.route,
    status: r.status,
    duration_ms: Math.round(seconds * 1e4) / 10,
  };
  if (level === "error") logger.error({ ...line, err: r.error }, "request failed");
  else logger[level](line, "request");
}

/**
 * The part of a Node `ServerResponse` the gateway's direct path writes to (problems here, relayed
 * answers in edge-gateway's RelayHandler): a real response, or the collector of an in-process call
 * (edge-gateway's local-call.ts, mcp-gateway's tool calls), which has no socket.
 */
export interface ResponseSink {
  readonly headersSent: boolean;
  readonly writableFinished: boolean;
  /** Merged into the head `writeHead` writes (its own headers win), as Node does. */
  setHeader(name: string, value: string): this;
  writeHead(status: number, headers: OutgoingHttpHeaders | string[]): this;
  write(chunk: Buffer): boolean;
  end(chunk?: Buffer | string): this;
  once(event: "close", listener: () => void): this;
  on(event: "drain", listener: () => void): this;
  destroy(): this;
}

/**
 * Answers a thrown error on a Node response as the one problem+json (shared mapError and
 * problemBody, as `onError` does for Hono apps); returns the status. A response already under way
 * can only be cut.
 *
 * @example
 * status = writeProblem(res, err, requestId);
 */
export function writeProblem(res: ResponseSink, err: unknown, requestId: string): number {
  const { problem, headers } = mapError(err);
  if (res.headersSent) {
    res.destroy();
    return problem.status;
  }
  const body = JSON.stringify(problemBody(problem, requestId));
  res
    .writeHead(problem.status, {
      "content-type": PROBLEM_CONTENT_TYPE,
      "content-length": Buffer.byteLength(body),
      "x-request-id": requestId,
      ...headers,
    })
    .end(body);
  return problem.status;
}
