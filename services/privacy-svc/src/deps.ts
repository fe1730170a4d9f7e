import type { S3Client } from "@aws-sdk/client-s3";
import type { SESv2Client } from "@aws-sdk/client-sesv2";
import type { ParticipantService } from "@flowstate/contracts/internal/personal-data";
import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import type { CredentialCheck } from "@flowstate/shared/seam/call-context";

/** Everything privacy-svc runs on, built once at boot (main.ts) or by a test (testing/harness.ts). */
export interface PrivacyDeps {
  orm: Database;
  /** The ORM's schema, for hand-written SQL. */
  schema: string;
  logger: Logger;
  /** Keys per caller (ADR 0014); the seam verifies v4 headers with them, its own calls are signed with them. */
  callerKeys: Keyring;
  s3: S3Client;
  ses: SESv2Client;
  exports: { bucket: string; kmsKeyId: string };
  mailFrom: string;
  /** How a write re-checks the caller's session (identity-svc's credential check; ADR 0012). */
  credentials: CredentialCheck;
  /** Where each other participant of the export listens (contracts/src/internal/personal-data.ts). */
  participantUrls: Partial<Record<ParticipantService, string>>;
  limits: {
    downloadUrlTtlSeconds: number;
    /** A new export is refused this long after the last successful one. */
    minIntervalMs: number;
    gatherDeadlineMs: number;
    participantTimeoutMs: number;
    /** Queued or running longer than this: the sweeper fails the job. */
    jobDeadlineMs: number;
  };
  /** The service's clock, injectable so that expiry and rate limits are testable. */
  clock: () => Date;
  /** Starts building a new job in this process at once (export-runner.ts); the queue builds it otherwise. */
  runNow?: (jobId: string) => void;
}

/** Export files are downloadable for 7 days after they are written (interface.md 8). */
export const EXPORT_RETENTION_MS = 7 * 24 * 3600_000;
