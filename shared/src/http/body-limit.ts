import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { HttpProblem } from "./http-problem.ts";
import type { ServiceEnv } from "./types.ts";

/**
 * Refuses bodies over `maxBytes` with 413 PAYLOAD_TOO_LARGE: by Content-Length up front, and by
 * counting bytes for chunked uploads. Requests without a body skip it.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<ServiceEnv> {
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HttpProblem(413, "PAYLOAD_TOO_LARGE", `the request body exceeds ${maxBytes} bytes`);
    },
  });
}
