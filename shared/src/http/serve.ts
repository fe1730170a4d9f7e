import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Logger } from "../log/logger.ts";
import { answerClientErrors, type FixedHeaders, requestErrorHandler } from "./client-errors.ts";

export type ShutdownHook = () => unknown;

export interface ServeOptions {
  host: string;
  /** 0 picks a free port; the chosen one is logged and returned. */
  port: number;
  logger: Logger;
  /** Run in order after the HTTP server has drained (close the ORM, stop the relay, …); failures are logged. */
  onShutdown?: ShutdownHook[] | undefined;
  /** How long in-flight requests may take to finish after SIGTERM (default 10 s); then connections are cut. */
  drainTimeoutMs?: number | undefined;
  /** Install SIGTERM/SIGINT handlers that shut down and exit 0 (default true; tests pass false). */
  handleSignals?: boolean | undefined;
  /**
   * Headers added to the answers the server writes itself, outside the app: requests refused as
   * malformed HTTP (the gateway passes its HSTS and nosniff, which its app adds to everything else).
   */
  headers?: FixedHeaders | undefined;
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Graceful shutdown without exiting: stop accepting, drain, run hooks. Idempotent. */
  shutdown(reason?: string): Promise<void>;
}

/** Anything with Hono's `fetch` (a service app, the gateway's app). */
export type Fetchable = { fetch: (request: Request) => Response | Promise<Response> };

/**
 * Listens with @hono/node-server and shuts down gracefully: on SIGTERM or SIGINT it stops
 * accepting, lets in-flight requests finish (bounded by `drainTimeoutMs`), runs the shutdown
 * hooks and exits 0. Logs `listening` with the URL. Requests that never reach the app (malformed
 * HTTP, a target or Host no Request can be built from) are answered with problem+json, not
 * Node's or node-server's empty 400 (client-errors.ts).
 *
 * @example
 * const { url } = await serve(app, { host: config.HOST, port: config.PORT, logger, onShutdown: [() => orm.close()] });
 */
export async function serve(app: Fetchable, options: ServeOptions): Promise<RunningServer> {
  const { logger } = options;
  // What createAdaptorServer does, plus node-server's errorHandler (which it does not pass on). Node's
  // own Host check is off: its 400 is empty; node-server refuses a missing Host through errorHandler.
  const server = createServer(
    { requireHostHeader: false },
    getRequestListener(app.fetch, { errorHandler: requestErrorHandler(logger, options.headers) }),
  );
  answerClientErrors(server, logger, options.headers);
  // Idle keep-alive sockets must outlive a load balancer's idle timeout (60 s on AWS ALB), or the
  // balancer reuses a socket Node is closing and the client sees a 502.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  logger.info({ url, host: options.host, port }, "listening");

  let closing: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return; // a second Ctrl-C does not cut the drain short; the deadline does
    void shutdown(signal).then(() => process.exit(0));
  };
  const shutdown = (reason = "shutdown") => {
    closing ??= drainAndClose(server, options, reason).finally(() => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    });
    return closing;
  };

  if (options.handleSignals !== false) {
    // `on`, not `once`: with `once` a second signal during the drain finds no listener and Node's
    // default action kills the process mid-drain.
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }
  return { server, port, url, shutdown };
}

async function drainAndClose(server: Server, options: ServeOptions, reason: string): Promise<void> {
  const { logger } = options;
  const deadline = options.drainTimeoutMs ?? 10_000;
  logger.info({ reason, drain_timeout_ms: deadline }, "shutting down");
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // close() stops accepting and closes idle keep-alive sockets once; sockets that turn idle after
  // their in-flight response must be swept again, or close() waits for the client to hang up.
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), deadline);
    }),
  ]);
  clearInterval(sweep);
  clearTimeout(timer);
  if (timedOut) {
    logger.warn({ drain_timeout_ms: deadline }, "drain deadline passed; closing remaining connections");
    server.closeAllConnections();
    await closed;
  }
  for (const hook of options.onShutdown ?? []) {
    try {
      await hook();
    } catch (err) {
      logger.error({ err }, "shutdown hook failed");
    }
  }
  logger.info("stopped");
}
