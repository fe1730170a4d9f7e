import { HttpProblem } from "@flowstate/shared/http/http-problem";
import type { ServiceContext } from "../context.ts";
import type { SellerClients } from "../marketplace/seller-access.ts";
import { mapUpstreamError } from "../marketplace/upstream-errors.ts";

export const CATALOG = "AWSMarketplace";

/**
 * Runs `fn` with the tenant's Marketplace clients for the caller's principal and maps any AWS
 * failure to the one DomainError mapping (upstream-errors.ts). `what` names the object a 404 is
 * about ("offer", "product", "change set").
 *
 * @example
 * const out = await callSeller(ctx, "offer", ({ catalog }) => catalog.send(new DescribeEntityCommand({ Catalog: CATALOG, EntityId: id })));
 */
export async function callSeller<T>(
  ctx: ServiceContext,
  what: string,
  fn: (clients: SellerClients) => Promise<T>,
): Promise<T> {
  try {
    return await ctx.deps.sellers.withClients(ctx.tenantId, ctx.principal, fn);
  } catch (err) {
    throw mapUpstreamError(err, what, ctx);
  }
}

/**
 * A 400 VALIDATION_FAILED with field errors, for rules only known once the seller's account was
 * read (an unknown product, a dimension the product does not have) or once a clone is merged with
 * its original: the same answer as a request that fails its schema. An HttpProblem, because a
 * DomainError cannot carry `errors[]` (a reserved problem member), and a thrown ZodError is not
 * an Error in zod 4 (the platform would answer 500).
 */
export function fieldErrors(issues: { path: PropertyKey[]; message: string; code?: string }[]): HttpProblem {
  return new HttpProblem("VALIDATION_FAILED", "the request is invalid", {
    errors: issues.map((i) => ({ path: i.path.map(String).join("."), code: i.code ?? "custom", message: i.message })),
  });
}

/** `YYYY-MM-DD` of the service's clock, in UTC. */
export const todayOf = (ctx: Pick<ServiceContext, "deps">): string => ctx.deps.clock().toISOString().slice(0, 10);
