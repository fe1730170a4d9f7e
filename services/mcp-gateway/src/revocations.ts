import type { Invalidation } from "@flowstate/contracts/internal/identity";
import { defineStatelessConsumer } from "@flowstate/shared/consumer/define-consumer";

/**
 * mcp-gateway's consumer (queue `<prefix>-<stage>-mcp-gateway`): AccessRevoked from every revoking
 * call, which reach identity-svc through the REST door, so the pipeline's caches drop a signed-out
 * session or revoked key as the edge gateway's do, and FeatureFlagChanged for its flag cache.
 * Stateless, like the edge gateway's.
 */
export const mcpRevocationConsumer = defineStatelessConsumer<{
  invalidate: (list: readonly Invalidation[]) => void;
}>()({
  service: "mcp-gateway",
  events: ["AccessRevoked", "FeatureFlagChanged"],
  handlers: {
    "AccessRevoked.v1": (event, caches) => caches.invalidate([event.data]),
    // The pipeline caches flags like the edge gateway: a change must show within a second here too.
    "FeatureFlagChanged.v1": (event, caches) =>
      caches.invalidate([{ scope: "features", tenant_id: event.data.tenant_id }]),
  },
});
