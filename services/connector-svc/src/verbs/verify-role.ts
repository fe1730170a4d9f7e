import { randomUUID } from "node:crypto";
import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import type { Diagnosis, VerificationStep } from "@flowstate/contracts/rest/connector/diagnosis";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { PRINCIPALS, type Principal, principalForChannel } from "@flowstate/shared/marketplace/principals";
import { AssumeRoleFailed, type SellerConnector } from "@flowstate/shared/marketplace/seller-sessions";
import {
  classifyUpstream,
  isAwsError,
  type UpstreamFailure,
  upstreamUnavailable,
} from "@flowstate/shared/marketplace/upstream-errors";
import type { ServiceContext } from "../context.ts";
import { type AssumeOutcome, diagnoseAssume, diagnosisEntry } from "../health/diagnose.ts";
import { fixContext, principalsOf } from "../onboarding/values.ts";

const transient = (f: UpstreamFailure) => f.kind === "throttled" || f.kind === "unavailable";

const DETAIL: Record<VerificationStep, (principal: Principal) => string> = {
  assume_role: (principal) => `Flowstate's ${principal} principal could not assume the role with your external ID`,
  verify_catalog_read: () => "the role was assumed, but the catalog read that verifies it failed",
  external_id_not_enforced: (principal) =>
    `Flowstate's ${principal} principal could also assume the role with a wrong external ID: its trust policy does not require yours, so another tenant could use it`,
};

function verificationFailed(
  step: VerificationStep,
  principal: Principal,
  failure: UpstreamFailure | undefined,
  hint: string,
  diagnosis: Diagnosis[],
) {
  return new DomainError("unprocessable", "CONNECTOR_VERIFICATION_FAILED", DETAIL[step](principal), {
    extensions: { step, principal, ...(failure ? { upstream_error: failure.name } : {}), hint, diagnosis },
  });
}

/**
 * The confused-deputy check (https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html):
 * one more AssumeRole with a random external ID, which must be refused. A trust policy without the
 * `sts:ExternalId` condition, or with one any value satisfies (`StringLike "*"`), would let every
 * tenant of Flowstate act in this seller's account.
 * Made at connect and health only, never on the hot path.
 */
async function requireExternalIdEnforced(ctx: ServiceContext, connector: SellerConnector, principal: Principal) {
  const fc = fixContext(ctx.deps.settings, connector.roleArn);
  const wrong = await ctx.deps.sessions.probe(connector, principal, { externalId: randomUUID() });
  if (!wrong.ok && transient(wrong.failure)) throw upstreamUnavailable(wrong.failure);
  if (!wrong.ok) return;
  throw verificationFailed(
    "external_id_not_enforced",
    principal,
    undefined,
    'Add the condition to the role\'s trust policy statement: Condition.StringEquals."sts:ExternalId" equal to your external ID (Settings, Marketplace); the CloudFormation template and the Terraform module always set it. Then connect again.',
    [diagnosisEntry("EXTERNAL_ID_CONDITION_MISSING", fc, { severity: "error" })],
  );
}

/**
 * Connect's verification (interface.md §3, §8): AssumeRole as the caller's channel principal
 * (REST → backend, MCP → mcp-execution: the one that channel's later calls use, so a role that
 * refuses MCP is refused when connected over MCP rather than on every tool call after) with the
 * tenant's external ID (a fresh call, never the cache), then one cheap catalog read (ListEntities
 * SaaSProduct, 1 result), then one with a wrong external ID that must be refused. A refusal is a 422 naming the step, AWS's error name, a hint and the
 * diagnosis; for a refused AssumeRole the other principals are tried too, which tells an untrusted
 * principal apart from a role nobody can assume. Throttling and outages that outlast the SDK's
 * retries are 503 UPSTREAM_UNAVAILABLE with Retry-After.
 */
export async function verifyRole(ctx: ServiceContext, connector: SellerConnector): Promise<{ accountId: string }> {
  const { sessions, settings } = ctx.deps;
  const fc = fixContext(settings, connector.roleArn);
  const principal = principalForChannel(ctx.channel);
  const probe = await sessions.probe(connector, principal);
  if (!probe.ok) {
    if (transient(probe.failure)) throw upstreamUnavailable(probe.failure);
    const outcomes: AssumeOutcome[] = [{ principal, failure: probe.failure }];
    for (const other of PRINCIPALS.filter((p): p is Principal => p !== principal && settings.principals.includes(p))) {
      const r = await sessions.probe(connector, other);
      outcomes.push({ principal: other, failure: r.ok ? undefined : r.failure });
    }
    const arns = principalsOf(settings).map((p) => p.arn);
    throw verificationFailed(
      "assume_role",
      principal,
      probe.failure,
      `Check the role's trust policy: Principal.AWS must list every Flowstate principal (${arns.join(", ")}) and Condition.StringEquals."sts:ExternalId" must equal your external ID (Settings, Marketplace). Check that the role exists in account ${fc.accountId} under the name MarketplaceConnector.`,
      diagnoseAssume(outcomes, false, fc, settings.flowstateAccountId),
    );
  }
  try {
    await sessions.withClients(connector, principal, ({ catalog }) =>
      catalog.send(new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct", MaxResults: 1 })),
    );
  } catch (err) {
    if (!(err instanceof AssumeRoleFailed) && !isAwsError(err)) throw err; // ours, not AWS's answer: a 500
    const failure = err instanceof AssumeRoleFailed ? err.failure : classifyUpstream(err);
    if (transient(failure)) throw upstreamUnavailable(failure, err);
    throw verificationFailed(
      "verify_catalog_read",
      principal,
      failure,
      "The role was assumed, but its permissions do not allow aws-marketplace:ListEntities: attach Flowstate's inline policy MarketplaceCatalogAccess unchanged (onboarding bundle).",
      [diagnosisEntry("CATALOG_ACCESS_DENIED", fc)],
    );
  }
  await requireExternalIdEnforced(ctx, connector, principal);
  return { accountId: probe.accountId };
}
