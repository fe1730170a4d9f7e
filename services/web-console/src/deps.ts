import type { Logger } from "@flowstate/shared/log/logger";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { ApiClient } from "./api/api-client.ts";
import type { Sealer } from "./session/seal.ts";

/** Everything web-console's handlers use, built once (main.ts, testing/harness.ts). */
export interface ConsoleDeps {
  orm: MikroORM;
  /** The schema its two tables live in (DATABASE_SCHEMA). */
  schema: string;
  logger: Logger;
  sealer: Sealer;
  /** The public API through the edge gateway. */
  api: ApiClient;
  /** The origin browsers see (the gateway's; the OAuth issuer): redirect URIs and the sign-in page are under it. */
  publicOrigin: string;
  /** The MCP server's public origin (the account page's connect snippet names `<mcpUrl>/mcp`). */
  mcpUrl: string;
  sessionTtlMs: number;
  clock: () => Date;
}

/** A table of the console's schema, quoted. */
export const tableOf = (deps: Pick<ConsoleDeps, "schema">, name: "console_session" | "console_login") =>
  `"${deps.schema}".${name}`;
