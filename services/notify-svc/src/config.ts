import { booleanVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * notify-svc's environment, parsed once at boot by main.ts. The delivery timings default to
 * production's (retry for 24 h, disable after failing for 24 h); tests shorten them to seconds.
 */
export const NotifyConfig = serviceConfigSchema({
  service: "notify-svc",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("notify"),
    /** identity-svc: every write re-checks the caller's session or API key there (ADR 0012). */
    IDENTITY_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    /** Local development only: accept http:// endpoint URLs. Production refuses them (decisions.md). */
    WEBHOOK_ALLOW_HTTP: booleanVar(false),
    /**
     * Special-use addresses an endpoint may resolve to all the same, comma-separated: empty in
     * production; the local stack and tests name their loopback receiver (as identity-svc's
     * OAUTH_CIMD_ALLOWED_ADDRESSES does for its metadata documents).
     */
    WEBHOOK_ALLOWED_ADDRESSES: z.string().default(""),
    /** One attempt, connection to the last byte of the answer. */
    WEBHOOK_TIMEOUT_MS: int(5_000, 100, 30_000),
    /** A message is retried for this long after it was created, then given up (decisions.md: 24 h). */
    DELIVERY_RETRY_WINDOW_SECONDS: int(86_400, 1, 7 * 86_400),
    /** Backoff: the first retry after this, doubling (with jitter) up to DELIVERY_BACKOFF_MAX_MS. */
    DELIVERY_BACKOFF_BASE_MS: int(5_000, 10, 3_600_000),
    DELIVERY_BACKOFF_MAX_MS: int(3_600_000, 10, 6 * 3_600_000),
    /** An endpoint whose every attempt failed for the retry window, at least this many, is disabled. */
    DISABLE_AFTER_FAILURES: int(10, 1, 10_000),
    /** How often the delivery worker looks for due deliveries when nothing woke it. */
    DELIVERY_POLL_MS: int(250, 10, 60_000),
    /** The delivery log's retention (decisions.md: 30 days). */
    DELIVERY_LOG_DAYS: int(30, 1, 365),
    /** After a rotation, the previous secret signs too for this long. */
    SECRET_OVERLAP_SECONDS: int(86_400, 0, 7 * 86_400),
    /** SES v2 sender identity of the e-mail to admins when an endpoint is disabled. */
    MAIL_FROM: z.email().default("no-reply@flowstate.local"),
    /** Consume the domain events from `<prefix>-<stage>-notify-svc`. */
    CONSUME_EVENTS: booleanVar(true),
  },
}).transform((c) => ({
  ...c,
  delivery: {
    allowHttp: c.WEBHOOK_ALLOW_HTTP,
    allowedAddresses: new Set(list(c.WEBHOOK_ALLOWED_ADDRESSES)),
    timeoutMs: c.WEBHOOK_TIMEOUT_MS,
    retryWindowMs: c.DELIVERY_RETRY_WINDOW_SECONDS * 1000,
    backoffBaseMs: c.DELIVERY_BACKOFF_BASE_MS,
    backoffMaxMs: c.DELIVERY_BACKOFF_MAX_MS,
    disableAfterFailures: c.DISABLE_AFTER_FAILURES,
    pollMs: c.DELIVERY_POLL_MS,
    logDays: c.DELIVERY_LOG_DAYS,
    secretOverlapMs: c.SECRET_OVERLAP_SECONDS * 1000,
  },
}));
export type NotifyConfig = z.output<typeof NotifyConfig>;
