import { type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type ProblemCode, statusOf } from "@flowstate/contracts/errors/codes";
import { PROBLEM_CONTENT_TYPE } from "@flowstate/contracts/errors/problem";
import { problemBody } from "@flowstate/shared/http/problem";
import { newRequestId } from "@flowstate/shared/http/request-id";

/** Node's own choices for requests its parser rejects (lib/_http_server.js socketOnError). */
const PROBLEM_BY_ERROR: Record<string, { code: ProblemCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: { code: "HEADERS_TOO_LARGE", detail: "the request headers are too large" },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: "PAYLOAD_TOO_LARGE", detail: "the chunk extensions are too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { code: "REQUEST_TIMEOUT", detail: "the request took too long to arrive" },
};
const MALFORMED = { code: "BAD_REQUEST", detail: "the request is not valid HTTP/1.1" } as const;

/**
 * Requests Node's HTTP parser rejects (a malformed Content-Length, header lines over the size
 * limit, a bad chunk) never reach the app, and Node answers them with a bare status line. The
 * gateway is the public edge, so those get the same problem+json body as every other refusal.
 *
 * @example
 * const { server } = await serve(gateway, options);
 * answerClientErrors(server);
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (err.code === "ECONNRESET" && !socket.readable)) {
      socket.destroy();
      return;
    }
    const { code, detail } = PROBLEM_BY_ERROR[err.code ?? ""] ?? MALFORMED;
    const status = statusOf(code);
    const requestId = newRequestId();
    const body = JSON.stringify(problemBody({ status, code, detail }, requestId));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
