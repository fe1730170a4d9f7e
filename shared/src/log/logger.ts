import pino from "pino";
import { redact, serialiseError } from "./redaction.ts";
import { logFilePath, teeDestination } from "./tee.ts";

export type Logger = pino.Logger;
export type LogLevel = pino.LevelWithSilent;

export interface LoggerOptions {
  /** Service name, bound to every line as `service` and used for the FLOWSTATE_LOG_DIR file name. */
  service: string;
  /** Level for stdout (or `destination`); ignored for stdout under NODE_ENV=test, see below. */
  level?: LogLevel | undefined;
  /** Where lines go instead of stdout (tests capture lines this way). */
  destination?: pino.DestinationStream | undefined;
  /** The environment to read LOG_LEVEL, NODE_ENV and FLOWSTATE_LOG_DIR from (default process.env). */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Structured JSON logger (pino) with secrets redacted by key name at any depth (see redaction.ts).
 *
 * - stdout level: `level`, else LOG_LEVEL, else "info". Under NODE_ENV=test stdout follows only
 *   LOG_LEVEL and defaults to "silent", so a test run stays readable even though services pass
 *   their configured level.
 * - FLOWSTATE_LOG_DIR: every line at debug and above is also appended to
 *   `$FLOWSTATE_LOG_DIR/<service>-<pid>.jsonl`, which the test runner scans for recorded secrets.
 *
 * @example
 * const logger = createLogger({ service: "identity-svc", level: config.LOG_LEVEL });
 * logger.info({ tenant_id }, "tenant created");
 * const child = logger.child({ request_id });
 */
export function createLogger(options: LoggerOptions): Logger {
  const env = options.env ?? process.env;
  const isTest = env.NODE_ENV === "test";
  const mainLevel: LogLevel = options.destination
    ? (options.level ?? "info")
    : isTest
      ? ((env.LOG_LEVEL as LogLevel | undefined) ?? "silent")
      : (options.level ?? (env.LOG_LEVEL as LogLevel | undefined) ?? "info");
  // Synchronous stdout: an async SonicBoom flushes its tail with a sync write at exit while an
  // earlier async write may still be in flight, which reorders or drops the last lines (seen in
  // serve.test.ts: "stopped" before "hook ran").
  const main = options.destination ?? pino.destination({ dest: 1, sync: true });
  const config: pino.LoggerOptions = {
    base: { service: options.service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redact(object),
    },
    // Errors are not walked by `log` (it sees Error instances); redact their serialised form.
    serializers: { err: (err) => serialiseError(err) },
  };

  const dir = env.FLOWSTATE_LOG_DIR;
  if (!dir) return redactChildBindings(pino({ ...config, level: mainLevel }, main));

  // In tests stdout is quiet but the file still gets debug lines: the secret scan must see them.
  const fileLevel: LogLevel = isTest ? "debug" : mainLevel === "silent" ? "info" : mainLevel;
  const streams: pino.StreamEntry[] = [
    { level: fileLevel as pino.Level, stream: teeDestination(logFilePath(dir, options.service)) },
  ];
  if (mainLevel !== "silent") streams.push({ level: mainLevel, stream: main });
  const lowest = lowestLevel(streams.map((s) => s.level as pino.Level));
  return redactChildBindings(pino({ ...config, level: lowest }, pino.multistream(streams)));
}

/**
 * pino applies `formatters.bindings` to the root only and serialises child bindings once, at
 * `child()`; wrapping `child` on the root covers every descendant, since children inherit it.
 */
function redactChildBindings(root: Logger): Logger {
  const child = root.child;
  root.child = function redactedChild(this: Logger, bindings, options) {
    return child.call(this, redact(bindings), options);
  } as typeof root.child;
  return root;
}

function lowestLevel(levels: pino.Level[]): pino.Level {
  return levels.reduce((a, b) => (pino.levels.values[a]! <= pino.levels.values[b]! ? a : b));
}
