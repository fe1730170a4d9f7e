import { Writable } from "node:stream";

/**
 * An in-memory log destination for tests: pass `capture.stream` as `destination` to createLogger
 * and read the parsed JSON lines from `capture.lines`.
 *
 * @example
 * const capture = captureLogs();
 * const logger = createLogger({ service: "t", destination: capture.stream });
 * logger.info({ password: "x" }, "hi");
 * assert.equal(capture.lines[0].password, "[redacted]");
 */
export function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream, text: () => lines.map((l) => JSON.stringify(l)).join("\n") };
}
