import { type BootParts, platformDeps } from "@flowstate/shared/boot/platform-deps";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { callSigner } from "@flowstate/shared/seam/verify-caller";
import type { PrivacyConfig } from "./config.ts";
import type { PrivacyDeps } from "./deps.ts";

/** The one way to assemble PrivacyDeps from configuration (main.ts; the test harness builds its own). */
export function buildDeps(o: BootParts<PrivacyConfig> & { clock?: () => Date }): PrivacyDeps {
  const c = o.config;
  const platform = platformDeps(o);
  return {
    ...platform,
    credentials: remoteCredentials({
      identityUrl: c.participantUrls["identity-svc"]!,
      sign: callSigner(platform, "privacy-svc", "identity-svc"),
    }),
    s3: o.aws.data("s3"),
    ses: o.aws.data("sesv2"),
    exports: { bucket: c.EXPORTS_BUCKET, kmsKeyId: c.DATA_KMS_KEY_ID },
    mailFrom: c.MAIL_FROM,
    participantUrls: c.participantUrls,
    limits: {
      downloadUrlTtlSeconds: c.DOWNLOAD_URL_TTL_SECONDS,
      minIntervalMs: c.EXPORT_MIN_INTERVAL_HOURS * 3600_000,
      gatherDeadlineMs: c.GATHER_DEADLINE_SECONDS * 1000,
      participantTimeoutMs: c.PARTICIPANT_TIMEOUT_SECONDS * 1000,
      jobDeadlineMs: c.JOB_DEADLINE_MINUTES * 60_000,
    },
    clock: o.clock ?? (() => new Date()),
  };
}
