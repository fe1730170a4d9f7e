import type { Invalidation } from "@flowstate/contracts/internal/identity";
import { cacheInvalidations } from "@flowstate/edge-gateway/pipeline";
import { defineStatelessConsumer } from "@flowstate/shared/consumer/define-consumer";

/**
 * mcp-gateway's consumer (queue `<prefix>-<stage>-mcp-gateway`): AccessRevoked from every revoking
 * call, which reach identity-svc through the REST door, so the pipeline's caches drop a signed-out
 * session or revoked key as the edge gateway's do. Flag changes reach it by identity-svc's push, as
 * they reach the edge gateway (see cacheInvalidations). Stateless, like the edge gateway's.
 */
export const mcpRevocationConsumer = defineStatelessConsumer<{
  invalidate: (list: readonly Invalidation[]) => void;
}>()({
  service: "mcp-gateway",
  // The pipeline caches what the edge gateway caches.
  handlers: cacheInvalidations,
});
