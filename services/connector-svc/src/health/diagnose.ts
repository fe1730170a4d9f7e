import type { Capability, Diagnosis, DiagnosisCode } from "@flowstate/contracts/rest/connector/diagnosis";
import type { UpstreamFailure } from "@flowstate/shared/marketplace/upstream-errors";
import { type FixContext, fixesFor } from "./fixes.ts";

export interface AssumeOutcome {
  principal: string;
  failure?: UpstreamFailure | undefined;
}

export interface CapabilityOutcome {
  capability: Capability;
  failure?: UpstreamFailure | undefined;
}

const SUMMARY: Record<DiagnosisCode, string> = {
  PRINCIPAL_NOT_TRUSTED:
    "The role's trust policy does not list this Flowstate principal, so it cannot assume the role.",
  EXTERNAL_ID_CONDITION_MISSING:
    "The role can be assumed with another external ID than yours: any tenant of Flowstate could act in this seller account (confused deputy). Add the condition.",
  EXTERNAL_ID_MISMATCH:
    "No Flowstate principal can assume the role. AWS does not say why; a likely cause is an sts:ExternalId condition with another value than your current external ID.",
  ROLE_IN_OTHER_ACCOUNT:
    "No Flowstate principal can assume the role. AWS does not say why; a likely cause is that the role ARN names an account where the connector role is not deployed.",
  POLICY_MIGRATION_REQUIRED:
    "Products and offers work, but agreements or seller currencies do not: the role's policy predates 2026-08-31. Update it in place; the role ARN and external ID stay, no reconnect is needed.",
  CATALOG_ACCESS_DENIED:
    "The role is assumed, but AWS Marketplace refuses the catalog read: the role's inline policy is not Flowstate's MarketplaceCatalogAccess.",
  UPSTREAM_THROTTLED: "AWS throttled the checks; nothing is known to be wrong. Check again shortly.",
  UPSTREAM_UNAVAILABLE: "AWS did not answer the checks; nothing is known to be wrong. Check again shortly.",
};

const entry = (
  code: DiagnosisCode,
  fc: FixContext,
  options: { certainty?: "certain" | "possible"; principal?: string; severity?: "error" | "warning" } = {},
): Diagnosis => ({
  code,
  // A missing condition is a warning on a working connector (health) but the reason connect refuses.
  severity:
    options.severity ??
    (code === "EXTERNAL_ID_CONDITION_MISSING" || code === "UPSTREAM_THROTTLED" || code === "UPSTREAM_UNAVAILABLE"
      ? "warning"
      : "error"),
  certainty: options.certainty ?? "certain",
  ...(options.principal ? { principal: options.principal } : {}),
  summary: SUMMARY[code],
  fixes: fixesFor(code, fc, options.principal),
});

const transient = (f: UpstreamFailure | undefined): DiagnosisCode | undefined =>
  f?.kind === "throttled" ? "UPSTREAM_THROTTLED" : f?.kind === "unavailable" ? "UPSTREAM_UNAVAILABLE" : undefined;

/**
 * What the AssumeRole outcomes say. AWS answers every refusal with the same AccessDenied, so
 * only the difference between principals is certain: one can, another cannot → that one is not
 * trusted. When none can, the external ID and the account are both possible causes, unless the
 * ARN names Flowstate's own account (then the role is certainly in the wrong account).
 */
export function diagnoseAssume(
  outcomes: readonly AssumeOutcome[],
  wrongExternalIdWorks: boolean,
  fc: FixContext,
  serviceAccountId: string,
): Diagnosis[] {
  const out: Diagnosis[] = [];
  const pending = outcomes.map((o) => transient(o.failure)).find(Boolean);
  if (pending) return [entry(pending, fc)];
  const denied = outcomes.filter((o) => o.failure);
  if (denied.length === outcomes.length) {
    if (fc.accountId === serviceAccountId) return [entry("ROLE_IN_OTHER_ACCOUNT", fc)];
    return [
      entry("EXTERNAL_ID_MISMATCH", fc, { certainty: "possible" }),
      entry("ROLE_IN_OTHER_ACCOUNT", fc, { certainty: "possible" }),
    ];
  }
  for (const o of denied) out.push(entry("PRINCIPAL_NOT_TRUSTED", fc, { principal: o.principal }));
  if (wrongExternalIdWorks) out.push(entry("EXTERNAL_ID_CONDITION_MISSING", fc));
  return out;
}

/** What the capability checks say (the role was assumed). */
export function diagnoseCapabilities(outcomes: readonly CapabilityOutcome[], fc: FixContext): Diagnosis[] {
  const pending = outcomes.map((o) => transient(o.failure)).find(Boolean);
  if (pending) return [entry(pending, fc)];
  const failed = new Set(outcomes.filter((o) => o.failure).map((o) => o.capability));
  if (failed.has("products") || failed.has("offers")) return [entry("CATALOG_ACCESS_DENIED", fc)];
  if (failed.has("agreements") || failed.has("seller_currencies")) return [entry("POLICY_MIGRATION_REQUIRED", fc)];
  return [];
}

export { entry as diagnosisEntry };
