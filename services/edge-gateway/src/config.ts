import { type RoutedServiceName, routedServices } from "@flowstate/contracts/rest/routes";
import { serviceCatalog, type UrlVariable, urlVariable } from "@flowstate/contracts/services/catalog";
import { accessTokenEnv, booleanVar, portVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

const int = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);
const rate = (fallback: number) => z.coerce.number().positive().default(fallback);
const serviceUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

type UpstreamVariables = {
  [S in RoutedServiceName as UrlVariable<S>]: S extends "identity-svc"
    ? typeof serviceUrl
    : z.ZodOptional<typeof serviceUrl>;
};

/**
 * Where each service that owns a registry route listens (IDENTITY_URL, CONNECTOR_URL, …: one
 * `urlVariable` per entry of `routedServices`), so a new service's routes are relayed with no edit
 * here. identity-svc's is required: every authenticated call is looked up there. Any other may be
 * unset (not deployed yet): its routes answer 503 SERVICE_UNAVAILABLE.
 */
const upstreamVariables = Object.fromEntries(
  routedServices.map((s) => [urlVariable(s), s === "identity-svc" ? serviceUrl : serviceUrl.optional()]),
) as UpstreamVariables;

/**
 * A door's environment: the pipeline's variables, PORT and METRICS_PORT defaulting to the door's
 * own in the services catalog. mcp-gateway runs the same pipeline (its config.ts adds its own
 * variables). Rate limits are per instance (see README); the defaults suit a person or a script,
 * a busy integration gets its own limits by configuration.
 */
export const gatewayConfigSchema = (door: "edge-gateway" | "mcp-gateway") =>
  serviceConfigSchema({
    service: door,
    extra: {
      ...upstreamVariables,
      /** The seller console (services/web-console), served at `/app` on this origin; unset: no `/app`. */
      WEB_CONSOLE_URL: serviceUrl.optional(),
      ...accessTokenEnv,
      BODY_LIMIT_BYTES: int(1024 * 1024),
      RATE_LIMIT_CREDENTIAL_PER_SEC: rate(50),
      RATE_LIMIT_CREDENTIAL_BURST: int(100),
      RATE_LIMIT_TENANT_PER_SEC: rate(200),
      RATE_LIMIT_TENANT_BURST: int(400),
      RATE_LIMIT_ANONYMOUS_PER_SEC: rate(10),
      RATE_LIMIT_ANONYMOUS_BURST: int(30),
      /**
       * How long session, API key and membership answers are trusted without an invalidation: a
       * backstop only. Every revocation is pushed to every leased door before the revoking call
       * answers, and a door without a valid lease trusts nothing it cached (ADR 0011), so a long TTL
       * costs no revocation; a short one (it was 60 s) made a 2,000-user mix miss on one lookup in
       * seven (issue 26).
       */
      ACCESS_CACHE_TTL_MS: int(600_000),
      ACCESS_CACHE_NEGATIVE_TTL_MS: int(2_000),
      /** How long a tenant's feature flags are trusted without an invalidation (a flag change must apply within 1 s). */
      FEATURE_CACHE_TTL_MS: int(1_000),
      ACCESS_CACHE_MAX: int(100_000),
      TOKEN_CACHE_MAX: int(100_000),
      JWKS_MIN_REFETCH_MS: int(5_000, 0),
      JWKS_REFRESH_MS: int(300_000),
      /**
       * Comma-separated addresses or CIDR blocks of the proxies in front of the gateway (the load
       * balancer's subnets) whose X-Forwarded-For is believed; empty (default): the header is ignored
       * and the socket's peer is the client.
       */
      TRUSTED_PROXIES: z
        .string()
        .default("")
        .transform((v) =>
          v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      UPSTREAM_CONNECTIONS: int(128),
      /** Relayed requests: the longest wait for a service's answer (headers, then between body chunks). */
      UPSTREAM_TIMEOUT_MS: int(10_000),
      /** The gateway's own calls (identity-svc lookups, JWKS, probes) and every connection attempt. */
      LOOKUP_TIMEOUT_MS: int(2_000),
      /** Consecutive calls to one service without an answer that open its circuit breaker. */
      BREAKER_FAILURES: int(5),
      /** While a breaker is open, how often its service's /healthz is probed (the longest a recovery goes unnoticed). */
      BREAKER_PROBE_MS: int(1_000),
      /**
       * Where /metrics is served: an internal port, never the public one (issue 7). Loopback by
       * default; in production the private address the scraper reaches.
       */
      METRICS_HOST: z.string().min(1).default("127.0.0.1"),
      METRICS_PORT: portVar(serviceCatalog[door].metricsPort),
      /**
       * Where identity-svc pushes invalidations to this instance (ADR 0011): the internal listener's
       * URL as identity-svc reaches it. Default `http://<METRICS_HOST>:<METRICS_PORT>` (loopback
       * locally); set it where METRICS_HOST is a wildcard (0.0.0.0 in a container): the task's address.
       */
      DOOR_PUSH_URL: serviceUrl.optional(),
      /** How often this instance renews its door lease with identity-svc (the lease lasts 4 s there). */
      DOOR_LEASE_RENEW_MS: int(1_000, 100),
      /** Consume AccessRevoked from the door's queue `<prefix>-<stage>-<door>`; off only for a single-instance setup without a queue. */
      CONSUME_EVENTS: booleanVar(true),
    },
  });

/** edge-gateway's environment (gatewayConfigSchema). */
export const GatewayConfig = gatewayConfigSchema("edge-gateway");
export type GatewayConfig = z.output<typeof GatewayConfig>;

/** Each routed service's base URL as configured (undefined: not deployed), for the gateway's `Upstreams`. */
export const upstreamUrls = (
  config: Pick<GatewayConfig, UrlVariable<RoutedServiceName>>,
): Record<RoutedServiceName, string | undefined> =>
  Object.fromEntries(routedServices.map((s) => [s, config[urlVariable(s)]])) as Record<
    RoutedServiceName,
    string | undefined
  >;
