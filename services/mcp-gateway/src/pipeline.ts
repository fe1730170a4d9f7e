import {
  createPipeline as createGatewayPipeline,
  type Gateway,
  type GatewayConfig,
  type GatewayDeps,
} from "@flowstate/edge-gateway/pipeline";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { Logger } from "@flowstate/shared/log/logger";

export interface Pipeline {
  gateway: Gateway;
  close(): Promise<void>;
}

/**
 * The edge gateway's own request pipeline, run inside mcp-gateway for MCP callers: the same
 * authentication (with the MCP resource as the token audience, so a REST token is refused here and
 * an MCP token at the REST door), revocation caches, tenant membership and role, feature flags,
 * rate limits and relay to the owning service, with `channel: "mcp"` in the signed assertion (the
 * seller session then uses the mcp-execution principal). Tool calls reach it in process
 * (`gateway.call`, call-route.ts): it listens on no socket, so the caller's token goes no further
 * than this process, as at the REST gateway (ADR 0007).
 */
export function startPipeline(options: {
  config: GatewayConfig;
  resource: string;
  /** The door's keys per caller (ADR 0014): `gateway--*` and its own `mcp-gateway--*` pairs. */
  callerKeys: GatewayDeps["callerKeys"];
  logger: Logger;
  /** mcp-gateway's own registry: the pipeline's requests and upstream breakers show on its /metrics. */
  metrics?: MetricsRegistry;
  /** This instance's door lease (ADR 0011), which main.ts starts: the pipeline's caches are trusted only while it is valid. */
  lease?: GatewayDeps["lease"];
}): Pipeline {
  const gateway = createGatewayPipeline({
    config: { ...options.config, JWT_AUDIENCE: options.resource },
    logger: options.logger.child({ component: "pipeline" }),
    callerKeys: options.callerKeys,
    channel: "mcp",
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.lease ? { lease: options.lease } : {}),
  });
  return { gateway, close: () => gateway.close() };
}
