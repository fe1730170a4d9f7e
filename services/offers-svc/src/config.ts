import { booleanVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

const optionalKey = z.string().min(16).optional();

/**
 * offers-svc's environment (the runtime contract plus its own variables), parsed once at boot by
 * main.ts.
 */
export const OffersConfig = serviceConfigSchema({
  service: "offers-svc",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("offers"),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    /** How long a tenant's seller-currencies answer is reused; at most 60 so a connector change shows within a minute. */
    SELLER_CURRENCIES_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(30),
    /** Most seller-currency answers held (tenant × principal, a few hundred bytes each); least recently used go first. */
    SELLER_CURRENCIES_CACHE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /** The change-set tracker's longest idle sleep; due change sets are polled at most every 2 s anyway. */
    TRACKER_IDLE_MS: z.coerce.number().int().min(50).max(10_000).default(1000),
    /** The agreement watch: one SearchAgreements page per connected tenant per interval (the list's freshness). */
    AGREEMENT_WATCH_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
    /** identity-svc: every write re-checks the caller's session or API key there (ADR 0012). */
    IDENTITY_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    /** connector-svc, for a tenant's connector record (role ARN, external ID). */
    CONNECTOR_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    /** How long a connector record is reused; a disconnect reaches every replica within this. */
    CONNECTOR_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /** Flowstate's AWS account, where the principals' roles live (production role chaining). */
    FLOWSTATE_ACCOUNT_ID: z
      .string()
      .regex(/^\d{12}$/)
      .default("123456789012"),
    /** Keys that stand for the principals (the local stack gives the sandbox's); unset: role chaining. */
    PRINCIPAL_BACKEND_ACCESS_KEY_ID: optionalKey,
    PRINCIPAL_BACKEND_SECRET_ACCESS_KEY: optionalKey,
    PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID: optionalKey,
    PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY: optionalKey,
    /** Consume ConnectorConnected/Disconnected and TenantSoftDeleted from `<prefix>-<stage>-offers-svc`. */
    CONSUME_EVENTS: booleanVar(true),
  },
});
export type OffersConfig = z.output<typeof OffersConfig>;
