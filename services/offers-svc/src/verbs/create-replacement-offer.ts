import {
  DescribeAgreementCommand,
  type DescribeAgreementCommandOutput,
  GetAgreementTermsCommand,
} from "@aws-sdk/client-marketplace-agreement";
import { marketplacePath } from "@flowstate/contracts/rest/offers/common";
import type { ReplacementOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import type { ServiceContext } from "../context.ts";
import { replacementOfferChanges } from "../marketplace/change-sets.ts";
import type { SellerClients } from "../marketplace/seller-access.ts";
import { isAccessDenied, mapUpstreamError } from "../marketplace/upstream-errors.ts";
import { checkOfferAgainstSeller } from "./check-offer.ts";
import { submitOnce } from "./submit-change.ts";

/**
 * The permissions an agreement-based offer needs beyond the interface's policy: the Service
 * Authorization Reference lists DescribeAgreement and GetAgreementTerms among StartChangeSet's
 * dependent actions (the change set reads the agreement it replaces). The interface's policy grants
 * SearchAgreements only, the legacy one no agreement action at all.
 */
export const REPLACEMENT_PERMISSIONS = ["aws-marketplace:DescribeAgreement", "aws-marketplace:GetAgreementTerms"];

/** 409 CONNECTOR_PERMISSION_MISSING naming what the role lacks; nothing was submitted. */
export const permissionMissing = (tenantId: string, missing: string[], cause?: unknown) =>
  new DomainError(
    "conflict",
    "CONNECTOR_PERMISSION_MISSING",
    `the connector role lacks ${missing.join(" and ")}, which a replacement offer needs; add ${missing.length > 1 ? "them" : "it"} to the role's inline policy (same conditions as MarketplaceAgreementRead), then retry`,
    { extensions: { missing_permissions: missing, health: marketplacePath(tenantId, "health") }, cause },
  );

/** AWS's denial names the action ("is not authorized to perform: <action>"); only the action is kept. */
const deniedAction = (err: unknown): string | undefined =>
  /not authorized to perform: ([\w-]+:\w+)/.exec(err instanceof Error ? err.message : "")?.[1];

/**
 * Reads the agreement (DescribeAgreement) and probes GetAgreementTerms, the two reads the change
 * set depends on, so a role without them is refused here naming each, before anything is
 * submitted. A denied AssumeRole is not a missing permission: it stays CONNECTOR_ACCESS_DENIED.
 */
async function readAgreement(ctx: ServiceContext, agreementId: string): Promise<DescribeAgreementCommandOutput> {
  const results = await Promise.allSettled(
    [
      (c: SellerClients) => c.agreement.send(new DescribeAgreementCommand({ agreementId })),
      (c: SellerClients) => c.agreement.send(new GetAgreementTermsCommand({ agreementId, maxResults: 1 })),
    ].map((fn) => ctx.deps.sellers.withClients(ctx.tenantId, ctx.principal, fn)),
  );
  const missing: string[] = [];
  let failure: unknown;
  results.forEach((r, i) => {
    if (r.status === "fulfilled") return;
    if (isAccessDenied(r.reason) && !(r.reason instanceof AssumeRoleFailed))
      missing.push(REPLACEMENT_PERMISSIONS[i] as string);
    else failure ??= r.reason;
  });
  if (missing.length) throw permissionMissing(ctx.tenantId, missing, results);
  if (failure !== undefined) throw mapUpstreamError(failure, "agreement", ctx);
  return (results[0] as PromiseFulfilledResult<DescribeAgreementCommandOutput>).value;
}

/**
 * An agreement-based offer (AWS CreateReplacementOffer) for one of the seller's active purchase
 * agreements: to its buyer, on its product, in one change set (released in the same one when
 * `release` is true). Refused before anything is submitted when the role lacks the agreement reads
 * (409 CONNECTOR_PERMISSION_MISSING), the agreement is not the seller's (404, as any foreign id) or
 * not active (409 AGREEMENT_NOT_ACTIVE). StartChangeSet refused for a permission is reported the
 * same way, naming the action AWS names. Tracked and evented as a create (OfferChange*.v2 has no
 * other action for a new offer; its change set shows CreateReplacementOffer).
 */
export async function createReplacementOffer(args: {
  ctx: ServiceContext;
  agreementId: string;
  input: ReplacementOfferRequest;
  idempotencyKey?: string | undefined;
}): Promise<ChangeHandle> {
  const { ctx, agreementId, input, idempotencyKey } = args;
  const intent = { action: "create" as const, input: { agreement_id: agreementId, ...input }, idempotencyKey };
  try {
    return await submitOnce(ctx, intent, async () => {
      const agreement = await readAgreement(ctx, agreementId);
      if (agreement.agreementType && agreement.agreementType !== "PurchaseAgreement") throw notFound("agreement");
      if (agreement.status !== "ACTIVE") {
        throw new DomainError("conflict", "AGREEMENT_NOT_ACTIVE", "only an active agreement can be replaced", {
          extensions: { agreement_status: (agreement.status ?? "unknown").toLowerCase() },
        });
      }
      const productId = agreement.proposalSummary?.resources?.find((r) => r.type === "SaaSProduct")?.id ?? "";
      return {
        currencyNotChecked: await checkOfferAgainstSeller(ctx, { product_id: productId, pricing: input.pricing }),
        changes: replacementOfferChanges(agreementId, input),
      };
    });
  } catch (err) {
    // StartChangeSet itself refused for a permission (a role with the reads but, say, a narrower
    // StartChangeSet): the platform's CONNECTOR_ACCESS_DENIED, made specific with AWS's action.
    if (
      err instanceof DomainError &&
      err.code === "CONNECTOR_ACCESS_DENIED" &&
      !(err.cause instanceof AssumeRoleFailed)
    ) {
      const action = deniedAction(err.cause);
      if (action) throw permissionMissing(ctx.tenantId, [action], err.cause);
    }
    throw err;
  }
}
