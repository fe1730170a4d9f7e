import type { S3Client } from "@aws-sdk/client-s3";
import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";

/** Everything audit-svc runs on, built once at boot (main.ts) or by a test (testing/harness.ts). */
export interface AuditDeps {
  /** Connected as the service's insert-only role (README "Database roles"). */
  orm: Database;
  /** The ORM's schema, for hand-written SQL. */
  schema: string;
  logger: Logger;
  /** Keys per caller (ADR 0014): the seam verifies the doors' v4 headers with `gateway--<service>`. */
  callerKeys: Keyring;
  s3: S3Client;
  archive: {
    /** The Object Lock (COMPLIANCE) bucket the archive writes to. */
    bucket: string;
    batchMaxRows: number;
    intervalMs: number;
    /** Live retention: archived rows older than this leave the table (audit_delete_archived). */
    retentionDays: number;
  };
  /** The service's clock, injectable so that time windows are testable. */
  clock: () => Date;
}
