import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { readSecretString } from "@flowstate/shared/boot/read-secret";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createApp } from "./app.ts";
import { ConsoleConfig } from "./config.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";

/** Boot: configuration, the sealing key, the database (sessions only), then listen. */
const config = parseConfig(ConsoleConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("web-console", config);

const sessionKey = await readSecretString(aws.data("secretsmanager"), config.SESSION_KEY_SECRET_ID);
const orm = await openDatabase({ ...databaseOptions(config, logger), entities: [], migrations });
const deps = buildDeps({
  orm,
  schema: config.DATABASE_SCHEMA,
  logger,
  sessionKey,
  gatewayUrl: config.EDGE_GATEWAY_URL,
  publicOrigin: config.JWT_ISSUER,
  mcpUrl: config.MCP_PUBLIC_URL,
  sessionTtlHours: config.SESSION_TTL_HOURS,
  apiTimeoutMs: config.API_TIMEOUT_MS,
});
await boot.serve(createApp(deps, { metrics }), [() => orm.close()]);
