import { ListEntitiesCommand, type ListEntitiesCommandOutput } from "@aws-sdk/client-marketplace-catalog";
import type { ProductList, ProductsQuery } from "@flowstate/contracts/rest/connector/marketplace";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { pageCursorCodec } from "@flowstate/shared/http/page-cursor";
import { connectorAccessDenied, connectorNotConnected } from "@flowstate/shared/marketplace/connector-problems";
import { principalForChannel } from "@flowstate/shared/marketplace/principals";
import { AssumeRoleFailed, type SellerClients } from "@flowstate/shared/marketplace/seller-sessions";
import { classifyUpstream, upstreamUnavailable } from "@flowstate/shared/marketplace/upstream-errors";
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { findConnected, requireConnected } from "./connected.ts";

/**
 * Our cursor is AWS's NextToken in the shared cursor encoding, one opaque URL-safe token; decoding
 * holds it to the shape AWS documents for ListEntities (1 to 8192 of `[\w+=.:@\-\/]`) before AWS sees it.
 */
const cursor = pageCursorCodec(z.string().regex(/^[\w+=.:@\-/]{1,8192}$/));
const encodeCursor = (token: string | undefined) => (token ? cursor.encode(token) : null);

const page = (out: ListEntitiesCommandOutput): ProductList => ({
  products: (out.EntitySummaryList ?? []).map((e) => ({
    id: e.EntityId ?? "",
    title: e.SaaSProductSummary?.ProductTitle ?? e.Name ?? null,
    visibility: e.SaaSProductSummary?.Visibility ?? e.Visibility ?? null,
    last_modified: e.LastModifiedDate ?? null,
  })),
  next_cursor: encodeCursor(out.NextToken),
});

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
  const principal = principalForChannel(ctx.channel);
  const nextToken = query.cursor === undefined ? undefined : cursor.decode(query.cursor);
  const { sessions } = ctx.deps;
  const list = ({ catalog }: SellerClients) =>
    catalog.send(
      new ListEntitiesCommand({
        Catalog: "AWSMarketplace",
        EntityType: "SaaSProduct",
        MaxResults: query.limit,
        NextToken: nextToken,
      }),
    );
  try {
    // Warm session: the catalog call and the connector row at once, so the row's round trip is off
    // the critical path. The answer counts only if the row still names the role and external ID the
    // session was opened for; a tenant disconnected (possibly through another instance) gets its
    // 409 and loses the session here, and nothing read with it is returned.
    const warm = sessions.peek(tenantId, principal);
    if (warm) {
      const [found, out] = await Promise.all([
        findConnected(ctx, tenantId),
        list(warm.clients).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
      ]);
      if (!found) {
        sessions.drop(tenantId);
        throw connectorNotConnected();
      }
      if (warm.opensFor(found.connector)) {
        if ("value" in out) return page(out.value);
        if (classifyUpstream(out.error).kind !== "expired") throw out.error;
      }
    }
    const { connector } = await requireConnected(ctx, tenantId);
    return page(await sessions.withClients(connector, principal, list));
  } catch (err) {
    if (err instanceof DomainError) throw err;
    const failure = err instanceof AssumeRoleFailed ? err.failure : classifyUpstream(err);
    if (failure.kind === "throttled" || failure.kind === "unavailable") throw upstreamUnavailable(failure, err);
    if (failure.kind === "invalid" && query.cursor !== undefined) {
      throw new DomainError("invalid", "INVALID_CURSOR", "the cursor is not one this listing gave out", { cause: err });
    }
    if (failure.kind === "denied") {
      throw connectorAccessDenied({ tenantId, principal, upstreamError: failure.name, cause: err });
    }
    throw err;
  }
}
