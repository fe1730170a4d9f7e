import { type BootParts, platformDeps } from "@flowstate/shared/boot/platform-deps";
import type { AuditConfig } from "./config.ts";
import type { AuditDeps } from "./deps.ts";

/** The one way to assemble AuditDeps from configuration (main.ts; the test harness builds its own). */
export function buildDeps(o: BootParts<AuditConfig>): AuditDeps {
  const c = o.config;
  return {
    ...platformDeps(o),
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
