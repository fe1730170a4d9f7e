import { type ParticipantService, personalDataCategories } from "@flowstate/contracts/internal/personal-data";
import { urlVariable } from "@flowstate/contracts/services/catalog";
import { booleanVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

const serviceUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const int = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * Every other service that answers for an export category (contracts/src/internal/personal-data.ts)
 * must be reachable: its URL variable is required. A new participant adds a category there and
 * privacy-svc asks it, with no change here.
 */
export const PARTICIPANTS = [
  ...new Set(Object.values(personalDataCategories).map((c): ParticipantService => c.service)),
].filter((s) => s !== "privacy-svc");

/** privacy-svc's environment, parsed once at boot by main.ts. */
export const PrivacyConfig = serviceConfigSchema({
  service: "privacy-svc",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("privacy"),
    /** Exports hold a connection while they build; HTTP and the sweeper need their own. */
    DATABASE_POOL_MAX: int(20, 4, 100),
    ...Object.fromEntries(PARTICIPANTS.map((s) => [urlVariable(s), serviceUrl])),
    /** The exports bucket (`<prefix>-<stage>-<account>-exports`, from the bootstrap). */
    EXPORTS_BUCKET: z.string().min(3),
    /** SSE-KMS key for the archives; the bootstrap's data key alias by default. */
    DATA_KMS_KEY_ID: z.string().min(1).optional(),
    /** SES v2 sender identity of the ready e-mail. */
    MAIL_FROM: z.email().default("no-reply@flowstate.local"),
    /** Lifetime of each presigned download URL (decisions.md: 5 minutes by default, at most 15). */
    DOWNLOAD_URL_TTL_SECONDS: int(300, 1, 900),
    /** A new export is refused this long after the last one that succeeded (failed ones do not count). */
    EXPORT_MIN_INTERVAL_HOURS: int(24, 0, 24 * 30),
    /** How long gathering may keep retrying an unavailable participant before the job fails. */
    GATHER_DEADLINE_SECONDS: int(60, 1, 3600),
    /** One participant request (headers and whole body). */
    PARTICIPANT_TIMEOUT_SECONDS: int(30, 1, 600),
    /** A job still queued or running this long after it was requested is failed by the sweeper. */
    JOB_DEADLINE_MINUTES: int(30, 1, 24 * 60),
    SWEEP_INTERVAL_SECONDS: int(60, 1, 3600),
    /**
     * Build an export in this process right after the request commits (export-runner.ts); off: only
     * the ExportRequested handler builds (every build then waits for the event's trip through the
     * bus and the queue, as when the in-process runner is saturated).
     */
    EXPORT_FAST_PATH: booleanVar(true),
    /** Consume `<prefix>-<stage>-privacy-svc`; off only to run the HTTP side alone. */
    CONSUME_EVENTS: booleanVar(true),
  },
}).transform((env) => {
  // The URL variables are keyed by computed names, so they are read by name from the parsed values
  // (each is a required, validated URL above) rather than through a typed property.
  const parsed = new Map<string, unknown>(Object.entries(env));
  const participantUrls: Partial<Record<ParticipantService, string>> = {};
  for (const s of PARTICIPANTS) participantUrls[s] = String(parsed.get(urlVariable(s)));
  return {
    ...env,
    DATA_KMS_KEY_ID: env.DATA_KMS_KEY_ID ?? `alias/${env.SERVICE_PREFIX}-${env.STAGE}-data`,
    participantUrls,
  };
});
export type PrivacyConfig = z.output<typeof PrivacyConfig>;
