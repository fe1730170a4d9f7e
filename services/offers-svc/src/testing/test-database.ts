import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { createLogger, type Logger } from "@flowstate/shared/log/logger";
import { migrations } from "../db/migrations.ts";

/**
 * offers-svc's logger and a throwaway schema with its migrations applied, for the in-process
 * harness and the served test instance alike. `logTo` (captureLogs().stream) gets every line too,
 * at debug, for tests that scan what the service logged.
 */
export async function openOffersTestDatabase(
  prefix: string,
  logTo?: NodeJS.WritableStream,
): Promise<{ logger: Logger; db: TestDatabase }> {
  const logger = createLogger({
    service: "offers-svc",
    ...(logTo ? { destination: logTo as never, level: "debug" } : {}),
  });
  return { logger, db: await openTestDatabase({ prefix, migrations, logger }) };
}
