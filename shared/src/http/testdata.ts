import { captureLogs } from "../log/capture.ts";
import { createLogger, type LogLevel } from "../log/logger.ts";
import { createServiceApp, type ServiceAppOptions } from "./app.ts";

/** A service app whose log lines the test can read (shared by this folder's tests). */
export function appWithLogs(options: Partial<ServiceAppOptions> & { level?: LogLevel } = {}) {
  const logs = captureLogs();
  const logger = createLogger({ service: "http-test", level: options.level ?? "debug", destination: logs.stream });
  const app = createServiceApp({ name: "http-test", logger, ...options });
  return { app, logs };
}
