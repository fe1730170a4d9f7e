import { randomBytes } from "node:crypto";
import { openTestDatabase } from "@flowstate/shared/db/test-database";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp } from "../app.ts";
import { migrations } from "../db/migrations.ts";
import { buildDeps } from "../deps-factory.ts";

/**
 * web-console on an ephemeral port with a throwaway schema and a fresh sealing key, calling the API
 * at `gatewayUrl` and telling browsers they are at `publicOrigin` (the gateway that relays /app to
 * it). `close()` stops it and drops the schema.
 *
 * @example
 * const console = await startConsole({ prefix: "gw_console", gatewayUrl, publicOrigin: gatewayUrl });
 */
export async function startConsole(o: {
  prefix: string;
  gatewayUrl: string;
  publicOrigin: string;
  clock?: () => Date;
}) {
  const db = await openTestDatabase({ prefix: `${o.prefix}_console`, migrations });
  const logger = createLogger({ service: "web-console" });
  const deps = buildDeps({
    orm: db.orm,
    schema: db.schema,
    logger,
    sessionKey: randomBytes(32).toString("base64url"),
    gatewayUrl: o.gatewayUrl,
    publicOrigin: o.publicOrigin,
    mcpUrl: o.publicOrigin,
    sessionTtlHours: 12,
    ...(o.clock ? { clock: o.clock } : {}),
  });
  const server = await serve(createApp(deps), {
    host: "127.0.0.1",
    port: 0,
    logger,
    handleSignals: false,
    drainTimeoutMs: 1_000,
  });
  return {
    url: server.url,
    db,
    deps,
    async close() {
      await server.shutdown("test done");
      await db.close();
    },
  };
}
