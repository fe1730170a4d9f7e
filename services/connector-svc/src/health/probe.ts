import { randomUUID } from "node:crypto";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { DescribeEntityCommand, ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import type { Capability, HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import { NOT_DOCUMENTED_BY_AWS_REASON } from "@flowstate/contracts/rest/offers/currencies";
import { PRINCIPALS, type Principal } from "@flowstate/shared/marketplace/principals";
import {
  AssumeRoleFailed,
  type SellerClients,
  type SellerConnector,
} from "@flowstate/shared/marketplace/seller-sessions";
import { classifyUpstream, isAwsError } from "@flowstate/shared/marketplace/upstream-errors";
import type { ConnectorDeps } from "../deps.ts";
import { fixContext, principalsOf } from "../onboarding/values.ts";
import { type AssumeOutcome, type CapabilityOutcome, diagnoseAssume, diagnoseCapabilities } from "./diagnose.ts";

const CATALOG = "AWSMarketplace";

/** One cheap call per capability (interface.md §4.3, §5.2): the first page of one result. */
const checks: Record<Capability, (c: SellerClients) => Promise<unknown>> = {
  products: ({ catalog }) =>
    catalog.send(new ListEntitiesCommand({ Catalog: CATALOG, EntityType: "SaaSProduct", MaxResults: 1 })),
  offers: ({ catalog }) =>
    catalog.send(new ListEntitiesCommand({ Catalog: CATALOG, EntityType: "Offer", MaxResults: 1 })),
  // The Seller entity is a DescribeEntity on the Seller kind: the scope the migration adds. What it
  // answers is not read: AWS documents no field of it (reference marketplace-api.md §3).
  seller_currencies: async ({ catalog }) => {
    const list = await catalog.send(new ListEntitiesCommand({ Catalog: CATALOG, EntityType: "Seller", MaxResults: 1 }));
    const id = list.EntitySummaryList?.[0]?.EntityId;
    if (id) await catalog.send(new DescribeEntityCommand({ Catalog: CATALOG, EntityId: id }));
  },
  agreements: ({ agreement }) =>
    agreement.send(
      new SearchAgreementsCommand({
        catalog: CATALOG,
        filters: [
          { name: "PartyType", values: ["Proposer"] },
          { name: "AgreementType", values: ["PurchaseAgreement"] },
        ],
        maxResults: 1,
      }),
    ),
};

/**
 * The health check of a connected tenant: a fresh AssumeRole per principal (renewing the cached
 * sessions), one with a random wrong external ID when some principal got in (it must fail: a
 * trust policy without the condition, or one any value satisfies, serves any tenant), then the four capability checks with a principal that got in. At most three STS and
 * five Marketplace calls; HealthCache keeps it from repeating.
 */
export async function probeHealth(deps: ConnectorDeps, connector: SellerConnector): Promise<HealthReport> {
  const { sessions, settings } = deps;
  const fc = fixContext(settings, connector.roleArn);
  const arns = new Map(principalsOf(settings).map((p) => [p.name, p.arn]));
  const principals = PRINCIPALS.filter((p): p is Principal => settings.principals.includes(p));
  const assumed = await Promise.all(principals.map((p) => sessions.probe(connector, p)));
  const outcomes: AssumeOutcome[] = principals.map((principal, i) => {
    const r = assumed[i]!;
    return { principal, failure: r.ok ? undefined : r.failure };
  });
  const inside = principals.find((_, i) => assumed[i]!.ok);
  let externalIdNotEnforced = false;
  let capabilities: CapabilityOutcome[] = [];
  if (inside) {
    externalIdNotEnforced = (await sessions.probe(connector, inside, { externalId: randomUUID() })).ok;
    capabilities = await Promise.all(
      (Object.keys(checks) as Capability[]).map(async (capability) => {
        try {
          await sessions.withClients(connector, inside, checks[capability]);
          return { capability };
        } catch (err) {
          if (!isAwsError(err) && !(err instanceof AssumeRoleFailed)) throw err; // a bug of ours, not a finding
          return { capability, failure: err instanceof AssumeRoleFailed ? err.failure : classifyUpstream(err) };
        }
      }),
    );
  }
  const diagnosis = [
    ...diagnoseAssume(outcomes, externalIdNotEnforced, fc, settings.flowstateAccountId),
    ...diagnoseCapabilities(capabilities, fc),
  ];
  return {
    healthy: diagnosis.length === 0 && outcomes.every((o) => !o.failure) && capabilities.every((c) => !c.failure),
    checked_at: deps.clock().toISOString(),
    role_arn: connector.roleArn,
    principals: outcomes.map((o) => ({
      principal: o.principal,
      arn: arns.get(o.principal) ?? "",
      can_assume: !o.failure,
      ...(o.failure ? { error: o.failure.name } : {}),
    })),
    capabilities: (Object.keys(checks) as Capability[]).map((capability) => {
      const c = capabilities.find((x) => x.capability === capability);
      if (!c) return { capability, ok: false, error: "NotChecked" };
      if (c.failure) return { capability, ok: false, error: c.failure.name };
      // Readable is all that can be checked: AWS documents no field with the payout currencies.
      if (capability === "seller_currencies")
        return {
          capability,
          ok: true,
          note: { code: "NOT_DOCUMENTED_BY_AWS" as const, detail: NOT_DOCUMENTED_BY_AWS_REASON },
        };
      return { capability, ok: true };
    }),
    diagnosis,
  };
}
