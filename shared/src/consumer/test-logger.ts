import { Writable } from "node:stream";
import { type Logger, pino } from "pino";

/**
 * A real pino logger whose JSON lines are kept in memory, for tests that assert what was logged.
 *
 * @example
 * const { logger, lines } = captureLogger();
 * assert.ok(lines().some((l) => l.reason === "invalid_data"));
 */
export function captureLogger(level = "debug"): { logger: Logger; lines: () => Record<string, unknown>[]; raw: () => string } {
  let buffer = "";
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      buffer += chunk.toString();
      callback();
    },
  });
  return {
    logger: pino({ level }, stream),
    lines: () =>
      buffer
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    raw: () => buffer,
  };
}
