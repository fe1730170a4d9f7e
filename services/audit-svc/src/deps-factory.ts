import type { AwsClients } from "@flowstate/shared/aws/clients";
import { type Database, schemaOf } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import type { AuditConfig } from "./config.ts";
import type { AuditDeps } from "./deps.ts";

/** The one way to assemble AuditDeps from configuration (main.ts; the test harness builds its own). */
export function buildDeps(o: {
  config: AuditConfig;
  orm: Database;
  logger: Logger;
  aws: AwsClients;
  internalAuthSecret: string;
}): AuditDeps {
  const c = o.config;
  return {
    orm: o.orm,
    schema: schemaOf(o.orm),
    logger: o.logger,
    internalAuthSecret: o.internalAuthSecret,
    s3: o.aws.data("s3"),
    archive: {
      bucket: c.AUDIT_ARCHIVE_BUCKET,
      batchMaxRows: c.AUDIT_ARCHIVE_BATCH_MAX_ROWS,
      intervalMs: c.AUDIT_ARCHIVE_INTERVAL_SECONDS * 1000,
      retentionDays: c.AUDIT_RETENTION_DAYS,
    },
    clock: () => new Date(),
  };
}
