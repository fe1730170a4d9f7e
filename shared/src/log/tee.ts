import { join } from "node:path";
import pino from "pino";

/** One open file per path per process: tests build many apps and loggers, and fds are finite. */
const open = new Map<string, pino.DestinationStream>();

/** `$FLOWSTATE_LOG_DIR/<service>-<pid>.jsonl`; the service name is made filename-safe. */
export const logFilePath = (dir: string, service: string) =>
  join(dir, `${service.replace(/[^A-Za-z0-9._-]/g, "_")}-${process.pid}.jsonl`);

/**
 * Synchronous appends: the test runner scans these files right after the processes exit, and an
 * async buffer would lose the last lines of a process that is killed.
 */
export function teeDestination(path: string): pino.DestinationStream {
  let stream = open.get(path);
  if (!stream) {
    stream = pino.destination({ dest: path, sync: true, append: true, mkdir: true });
    open.set(path, stream);
  }
  return stream;
}
