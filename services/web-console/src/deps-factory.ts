import type { Logger } from "@flowstate/shared/log/logger";
import type { MikroORM } from "@mikro-orm/postgresql";
import { apiClient } from "./api/api-client.ts";
import type { ConsoleDeps } from "./deps.ts";
import { createSealer } from "./session/seal.ts";

/** The one way to assemble ConsoleDeps, shared by main.ts and the test harness. */
export function buildDeps(o: {
  orm: MikroORM;
  schema: string;
  logger: Logger;
  /** The sealing key's secret value (base64url of 256 bits, as the bootstrap creates it). */
  sessionKey: string;
  gatewayUrl: string;
  publicOrigin: string;
  /** The MCP server's public origin (MCP_PUBLIC_URL, else MCP_GATEWAY_URL as npm start sets it). */
  mcpUrl: string;
  sessionTtlHours: number;
  apiTimeoutMs?: number;
  clock?: () => Date;
}): ConsoleDeps {
  return {
    orm: o.orm,
    schema: o.schema,
    logger: o.logger,
    sealer: createSealer(Buffer.from(o.sessionKey, "base64url")),
    api: apiClient({ baseUrl: o.gatewayUrl, timeoutMs: o.apiTimeoutMs ?? 10_000, logger: o.logger }),
    publicOrigin: new URL(o.publicOrigin).origin,
    mcpUrl: o.mcpUrl.replace(/\/$/, ""),
    sessionTtlMs: o.sessionTtlHours * 3600_000,
    clock: o.clock ?? (() => new Date()),
  };
}
