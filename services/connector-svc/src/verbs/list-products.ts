import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import type { ProductList, ProductsQuery } from "@flowstate/contracts/rest/connector/marketplace";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { principalForChannel } from "@flowstate/shared/marketplace/principals";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import { classifyUpstream, upstreamUnavailable } from "@flowstate/shared/marketplace/upstream-errors";
import type { ServiceContext } from "../context.ts";
import { requireConnected } from "./connected.ts";
import { requireTenant } from "./tenant-guard.ts";

/** Our cursor is AWS's NextToken, base64url-wrapped so it is one opaque URL-safe token. */
const encodeCursor = (token: string | undefined) => (token ? Buffer.from(token).toString("base64url") : null);
const decodeCursor = (cursor: string | undefined) =>
  cursor === undefined ? undefined : Buffer.from(cursor, "base64url").toString();

/**
 * GET products: the seller's SaaS products, a page at a time, as the caller's channel principal
 * (REST → backend, MCP → mcp-execution) with the cached session. The role refusing that principal
 * or the read is 409 CONNECTOR_ACCESS_DENIED naming AWS's error (health says why); throttling and
 * outages after the SDK's retries are 503 with Retry-After; a cursor AWS does not accept is 400.
 */
export async function listProducts({
  ctx,
  tenantId,
  query,
}: {
  ctx: ServiceContext;
  tenantId: string;
  query: ProductsQuery;
}): Promise<ProductList> {
  requireTenant(ctx, tenantId, "member", "read");
  const { connector } = await requireConnected(ctx, tenantId);
  const principal = principalForChannel(ctx.channel);
  try {
    const out = await ctx.deps.sessions.withClients(connector, principal, ({ catalog }) =>
      catalog.send(
        new ListEntitiesCommand({
          Catalog: "AWSMarketplace",
          EntityType: "SaaSProduct",
          MaxResults: query.limit,
          NextToken: decodeCursor(query.cursor),
        }),
      ),
    );
    return {
      products: (out.EntitySummaryList ?? []).map((e) => ({
        id: e.EntityId ?? "",
        title: e.SaaSProductSummary?.ProductTitle ?? e.Name ?? null,
        visibility: e.SaaSProductSummary?.Visibility ?? e.Visibility ?? null,
        last_modified: e.LastModifiedDate ?? null,
      })),
      next_cursor: encodeCursor(out.NextToken),
    };
  } catch (err) {
    const failure = err instanceof AssumeRoleFailed ? err.failure : classifyUpstream(err);
    if (failure.kind === "throttled" || failure.kind === "unavailable") throw upstreamUnavailable(failure, err);
    if (failure.kind === "invalid" && query.cursor !== undefined) {
      throw new DomainError("invalid", "INVALID_CURSOR", "the cursor is not one this listing gave out", { cause: err });
    }
    if (failure.kind === "denied") {
      throw new DomainError(
        "conflict",
        "CONNECTOR_ACCESS_DENIED",
        `your seller account refused Flowstate's ${principal} principal; GET …/integrations/marketplace/health says what to change`,
        { extensions: { upstream_error: failure.name, principal }, cause: err },
      );
    }
    throw err;
  }
}
