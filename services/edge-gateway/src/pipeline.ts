/**
 * What another process runs of the edge pipeline, and nothing else of edge-gateway: mcp-gateway runs
 * this pipeline in process for MCP callers (same authentication, caches, tenant rule, rate limits
 * and relay; ADR 0007), so it needs the pipeline itself, its configuration, the identity it hands
 * a route, the headers of the gateway's own answers, the cache-invalidation handlers of its
 * AccessRevoked consumer, and the door lease with its invalidation push (ADR
 * 0011). The one named export of edge-gateway's production code (package.json `./pipeline`), so
 * that the rest stays free to change.
 */

export {
  createApp as createPipeline,
  type Gateway,
  type GatewayDeps,
  type GatewaySettings,
} from "./app.ts";
export type { CallerIdentity } from "./auth/authenticate.ts";
export { GatewayConfig, gatewayConfigSchema } from "./config.ts";
export { cacheInvalidations } from "./events/revocation-consumer.ts";
export { OWN_ANSWER_HEADERS } from "./http/security-headers.ts";
export { doorInstance } from "./lease/door-instance.ts";
export { mountInvalidationPush } from "./lease/push-route.ts";
