import { type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type ProblemCode, statusOf } from "@flowstate/contracts/errors/codes";
import { PROBLEM_CONTENT_TYPE } from "@flowstate/contracts/errors/problem";
import { RequestError } from "@hono/node-server";
import type { Logger } from "../log/logger.ts";
import { problemBody, problemResponse } from "./problem.ts";
import { newRequestId } from "./request-id.ts";

/** Node's own choices for requests its parser rejects (lib/_http_server.js socketOnError). */
const PROBLEM_BY_ERROR: Record<string, { code: ProblemCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: { code: "HEADERS_TOO_LARGE", detail: "the request headers are too large" },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: "PAYLOAD_TOO_LARGE", detail: "the chunk extensions are too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { code: "REQUEST_TIMEOUT", detail: "the request took too long to arrive" },
};
const MALFORMED = { code: "BAD_REQUEST", detail: "the request is not valid HTTP/1.1" } as const;
const BAD_TARGET = "the request target or Host header is not valid (an origin-form path and a Host are required)";

/** Extra headers every answer of a server carries (the gateway's HSTS, nosniff); lower-case names. */
export type FixedHeaders = Readonly<Record<string, string>>;

/**
 * Requests Node's HTTP parser rejects (a garbage request line, a malformed Content-Length, header
 * lines over the size limit, a bad chunk) never reach the app, and Node answers them with a bare
 * status line. They get the same problem+json body as every other refusal, with a request id; the
 * connection is closed (the parser's state is unknown). Installed by `serve` on every service.
 *
 * @example
 * answerClientErrors(server, logger);
 */
export function answerClientErrors(server: Server, logger: Logger, headers: FixedHeaders = {}): void {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (err.code === "ECONNRESET" && !socket.readable)) {
      socket.destroy();
      return;
    }
    const { code, detail } = PROBLEM_BY_ERROR[err.code ?? ""] ?? MALFORMED;
    const status = statusOf(code);
    const requestId = newRequestId();
    const body = JSON.stringify(problemBody({ status, code, detail }, requestId));
    // The parser's code only (never err.rawPacket or the message: they may quote the request's bytes).
    logger.info({ request_id: requestId, status, code, parser_error: err.code }, "malformed request refused");
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n${extra}connection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * @hono/node-server's `errorHandler`: what it cannot turn into a Request (a `*` or backslash in the
 * target, a missing or malformed Host, e.g. HTTP/1.0 without one) it otherwise answers with an
 * empty 400; an app whose fetch rejects (none should: onError answers) with an empty 500. Both
 * become problem+json.
 *
 * @example
 * createAdaptorServer({ fetch: app.fetch, errorHandler: requestErrorHandler(logger, headers) });
 */
export function requestErrorHandler(logger: Logger, headers: FixedHeaders = {}) {
  return (err: unknown): Response => {
    const requestId = newRequestId();
    if (err instanceof RequestError) {
      // node-server's message names the rule ("Missing host header"), never the request's text.
      logger.info(
        { request_id: requestId, status: 400, code: "BAD_REQUEST", reason: err.message },
        "malformed request refused",
      );
      return problemResponse({ status: 400, code: "BAD_REQUEST", detail: BAD_TARGET }, requestId, {
        ...headers,
      });
    }
    logger.error({ request_id: requestId, err }, "request failed outside the app");
    return problemResponse({ status: 500, code: "INTERNAL_ERROR" }, requestId, { ...headers });
  };
}
