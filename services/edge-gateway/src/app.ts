import type { IncomingMessage } from "node:http";
import { TenantId, type TenantRole } from "@flowstate/contracts/ids";
import type { Channel, Invalidation } from "@flowstate/contracts/internal/identity";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { routes as registry } from "@flowstate/contracts/rest/routes";
import { doorSigner } from "@flowstate/shared/auth/gateway-signer";
import { JwksKeys } from "@flowstate/shared/auth/jwks-keys";
import { type Keyring, serviceSigner } from "@flowstate/shared/auth/keyring";
import { createServiceApp, type ServiceApp } from "@flowstate/shared/http/app";
import { createMetrics, type MetricsRegistry } from "@flowstate/shared/http/metrics";
import { newRequestId } from "@flowstate/shared/http/request-id";
import type { Logger } from "@flowstate/shared/log/logger";
import { createAccessState } from "./auth/access-state.ts";
import { AccessTokenVerifier } from "./auth/access-token.ts";
import { authenticate, type CallerIdentity } from "./auth/authenticate.ts";
import { credentialOf } from "./auth/credential.ts";
import { identityClient } from "./auth/identity-client.ts";
import { memberRoleOf } from "./auth/tenant-access.ts";
import { InvalidationLog } from "./cache/invalidation-log.ts";
import { applyInvalidations, parseInvalidateHeader } from "./cache/invalidations.ts";
import { type GatewayConfig, upstreamUrls } from "./config.ts";
import { clientAddress, trustedProxies } from "./http/client-address.ts";
import { gatewayFetch } from "./http/gateway-fetch.ts";
import type { LocalAnswer, LocalRequest } from "./http/local-call.ts";
import { SECURITY_HEADERS } from "./http/security-headers.ts";
import { DoorLease, type DoorLeaseOptions } from "./lease/door-lease.ts";
import { mountDocs } from "./openapi/docs-page.ts";
import { openApiDocument } from "./openapi/document.ts";
import { mountConsoleRelay } from "./proxy/console-relay.ts";
import { Upstreams } from "./proxy/upstreams.ts";
import { RateLimits } from "./ratelimit/rate-limits.ts";
import { RouteTable } from "./routing/route-table.ts";

export type GatewaySettings = Omit<
  GatewayConfig,
  | "STAGE"
  | "SERVICE_PREFIX"
  | "HOST"
  | "PORT"
  | "LOG_LEVEL"
  | "AWS_ENDPOINT_URL"
  | "MARKETPLACE_ENDPOINT_URL"
  | "EVENT_BUS_NAME"
  | "CONSUME_EVENTS"
  | "METRICS_HOST"
  | "METRICS_PORT"
  | "DOOR_PUSH_URL"
  | "DOOR_LEASE_RENEW_MS"
>;

export interface GatewayDeps {
  config: GatewaySettings;
  logger: Logger;
  /**
   * The door's keys per caller (ADR 0014): `gateway--<service>` signs what it forwards to each
   * service, `<door>--identity-svc` its own lookups.
   */
  callerKeys: Keyring;
  /** The public route registry; tests may pass a subset or extra routes. */
  routes?: readonly RouteSpec[];
  /** The registry the gateway counts into; main.ts serves it on the internal port (METRICS_PORT). */
  metrics?: MetricsRegistry;
  /**
   * The channel signed into every forwarded assertion: `rest` here; `mcp` when mcp-gateway runs this
   * pipeline for its tool calls (services pick the seller-session principal from it).
   */
  channel?: Channel;
  /**
   * This instance's door lease (ADR 0011), which main.ts starts: caches are trusted only while it
   * is valid. Absent (in-process tests): the caches are trusted as the only instance's.
   */
  lease?: Pick<DoorLeaseOptions, "instanceId" | "pushUrl" | "renewMs">;
}

export interface Gateway {
  /** The platform app alone (probes, /openapi.json, /docs): what `app.request()` tests reach. */
  app: ServiceApp;
  /** What to serve: registry routes on the direct Node path, everything else through `app`. */
  fetch: ReturnType<typeof gatewayFetch>;
  /**
   * A registry route called in process, through the same route path as `fetch` (mcp-gateway's tool
   * calls: no loopback socket, see its ADR 0007).
   */
  call(request: LocalRequest): Promise<LocalAnswer>;
  /** The client's address behind a Node request, as routes see it (TRUSTED_PROXIES applied). */
  clientAddress(req: IncomingMessage): string;
  /** For the AccessRevoked consumer: the same path the answer header takes. */
  invalidate(list: readonly Invalidation[]): void;
  /** Drops every cached session, API key and membership answer. */
  invalidateAll(): void;
  /**
   * The caller behind an Authorization header, revocation checked, exactly as a registry route
   * authenticates it (mcp-gateway answers its transport-level 401 with it); throws the DomainError
   * the route would answer.
   */
  authenticate(authorization: string | undefined): Promise<CallerIdentity>;
  /**
   * A person's role in a tenant (null: not a member, or no such live tenant), from the same cached
   * membership facts a tenant route is authorized with (auth/tenant-access.ts), so exactly as fresh:
   * every change is invalidated before its answer. mcp-gateway checks a tenant URL with it.
   */
  memberRole(tenantId: string, sub: string): Promise<TenantRole | null>;
  /** The readiness check of identity-svc, which this pipeline needs for every authenticated call (mcp-gateway's /readyz runs it too). */
  identityReady(): Promise<void>;
  /** The door lease, when `deps.lease` was given: main.ts starts it; close() ends it. */
  lease: DoorLease | undefined;
  /** Fetches the JWKS now (boot), so the first request does not pay for it. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

const RETENTION_SLACK_MS = 5_000;

/**
 * The edge gateway: one public port for every registry route plus the OpenAPI document and docs.
 * It owns nothing durable; what it knows about credentials is cached from identity-svc and
 * dropped by invalidations.
 *
 * @example
 * const gateway = createApp({ config, logger, callerKeys: keys.keyring });
 * await serve(gateway, { host, port, logger, onShutdown: [() => gateway.close()] });
 */
export function createApp(deps: GatewayDeps): Gateway {
  const { config, logger } = deps;
  const routes = deps.routes ?? registry;
  const breakerOpenings = new Map<string, number>();
  const upstreams = new Upstreams(upstreamUrls(config), {
    connections: config.UPSTREAM_CONNECTIONS,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    lookupTimeoutMs: config.LOOKUP_TIMEOUT_MS,
    breakerFailures: config.BREAKER_FAILURES,
    breakerProbeMs: config.BREAKER_PROBE_MS,
    onBreakerChange: (service, state, cause) => {
      if (state === "open")
        logger.warn({ upstream: service, err: cause }, "upstream circuit open: answering 503 at once");
      else if (state === "closed")
        logger.info({ upstream: service }, "upstream circuit closed: the service answers again");
      if (state === "open") breakerOpenings.set(service, (breakerOpenings.get(service) ?? 0) + 1);
    },
  });
  const identity = identityClient({
    upstream: upstreams.get("identity-svc")!,
    sign: serviceSigner(deps.callerKeys, "identity-svc"),
    newRequestId,
  });
  const keys = new JwksKeys({
    fetchJwks: identity.jwks,
    minRefetchMs: config.JWKS_MIN_REFETCH_MS,
    refreshMs: config.JWKS_REFRESH_MS,
  });
  const tokens = new AccessTokenVerifier({
    keys,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    cacheMax: config.TOKEN_CACHE_MAX,
  });
  const log = new InvalidationLog(
    Math.max(config.ACCESS_CACHE_TTL_MS, config.ACCESS_CACHE_NEGATIVE_TTL_MS, config.FEATURE_CACHE_TTL_MS) +
      RETENTION_SLACK_MS,
  );
  const lease = deps.lease && new DoorLease({ ...deps.lease, identity, log, logger });
  const state = createAccessState(
    identity,
    log,
    {
      max: config.ACCESS_CACHE_MAX,
      ttlMs: config.ACCESS_CACHE_TTL_MS,
      negativeTtlMs: config.ACCESS_CACHE_NEGATIVE_TTL_MS,
      featureTtlMs: config.FEATURE_CACHE_TTL_MS,
    },
    lease && (() => lease.admit()),
  );
  const limits = new RateLimits({
    credential: { ratePerSec: config.RATE_LIMIT_CREDENTIAL_PER_SEC, burst: config.RATE_LIMIT_CREDENTIAL_BURST },
    tenant: { ratePerSec: config.RATE_LIMIT_TENANT_PER_SEC, burst: config.RATE_LIMIT_TENANT_BURST },
    anonymous: { ratePerSec: config.RATE_LIMIT_ANONYMOUS_PER_SEC, burst: config.RATE_LIMIT_ANONYMOUS_BURST },
    maxKeys: 100_000,
  });
  const hooks = {
    onInvalidate(value: string) {
      const list = parseInvalidateHeader(value);
      if (list === null) {
        logger.warn("unparseable flowstate-invalidate header; dropping every cached access fact");
        log.markAll();
      } else applyInvalidations(log, list);
    },
  };

  const identityReady = async () => {
    await upstreams.check("identity-svc");
    if (!keys.kids.length) await keys.refresh();
  };
  const metrics = deps.metrics ?? createMetrics();
  metrics.gauge("upstream_circuit_open", "1 while the service's circuit breaker refuses calls (open or probing)", () =>
    upstreams.all().map((u) => ({ labels: { upstream: u.name }, value: u.breaker.state === "closed" ? 0 : 1 })),
  );
  metrics.counter("upstream_circuit_opened_total", "Times the service's circuit breaker opened", () =>
    upstreams.all().map((u) => ({ labels: { upstream: u.name }, value: breakerOpenings.get(u.name) ?? 0 })),
  );
  if (lease) {
    metrics.gauge("door_lease_valid", "1 while this instance's door lease is valid (its caches are trusted)", () => [
      { labels: {}, value: lease.valid() ? 1 : 0 },
    ]);
    metrics.counter("door_lease_renewals_total", "Door lease renewals, by outcome", () => [
      { labels: { outcome: "ok" }, value: lease.stats.renewals },
      { labels: { outcome: "failed" }, value: lease.stats.failures },
    ]);
  }
  const app = createServiceApp({
    name: "edge-gateway",
    logger,
    metrics,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    // Probes, /openapi.json, /docs, 404s and 405s; relayed answers and refusals get them on the direct path.
    responseHeaders: SECURITY_HEADERS,
    // The public port has no /metrics (404): main.ts serves the registry on METRICS_HOST:METRICS_PORT.
    metricsRoute: false,
    // identity-svc is the one upstream every authenticated call needs (and sign-in goes to it): not
    // ready while its breaker is open, while it does not answer /healthz within LOOKUP_TIMEOUT_MS,
    // or before the signing keys were fetched once. The other services are not checked: only their
    // routes depend on them (they answer 503 at once while their breaker is open), and an instance
    // taken out of the balancer would take every route down with it (README, "Stalled upstreams").
    readiness: { "identity-svc": identityReady },
    // Above LOOKUP_TIMEOUT_MS, so the check's own deadline (and its count towards the breaker) comes first.
    readinessTimeoutMs: config.LOOKUP_TIMEOUT_MS + 1_000,
  });
  const document = JSON.stringify(openApiDocument(routes));
  app.get("/openapi.json", (c) => c.body(document, 200, { "content-type": "application/json" }));
  mountDocs(app);
  if (config.WEB_CONSOLE_URL) mountConsoleRelay(app, config.WEB_CONSOLE_URL, config.UPSTREAM_TIMEOUT_MS);
  const proxies = config.TRUSTED_PROXIES.length ? trustedProxies(config.TRUSTED_PROXIES) : undefined;
  const routeDeps = {
    upstreams,
    tokens,
    state,
    limits,
    sign: doorSigner(deps.callerKeys),
    channel: deps.channel ?? "rest",
    hooks,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    trustedProxies: proxies,
  };
  const fetch = gatewayFetch({ app, table: new RouteTable(routes), deps: routeDeps, logger, metrics });

  return {
    app,
    fetch,
    call: fetch.call,
    clientAddress: (req) => clientAddress(req, proxies),
    invalidate: (list) => applyInvalidations(log, list),
    invalidateAll: () => log.markAll(),
    authenticate: (authorization) => authenticate(credentialOf(authorization), tokens, state),
    memberRole: async (tenantId, sub) => {
      if (!TenantId.safeParse(tenantId).success) return null;
      state.admit?.();
      return memberRoleOf(state, tenantId, sub);
    },
    identityReady,
    lease,
    warmUp: () => keys.refresh(),
    async close() {
      await lease?.stop();
      await upstreams.close();
    },
  };
}
