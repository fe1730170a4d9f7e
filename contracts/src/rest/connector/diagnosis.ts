import { z } from "zod";
import { CurrenciesUndeterminedReason } from "../offers/currencies.ts";

/**
 * Stable codes for what can be wrong with a tenant's connector role, shared by the connect failure
 * (422 CONNECTOR_VERIFICATION_FAILED `diagnosis`) and the health answer. Clients switch on these;
 * the wording around them may change.
 *
 * AWS answers every refused AssumeRole with the same `AccessDenied` (unknown role, untrusted
 * principal, wrong or missing external ID), so some causes cannot be told apart from outside the
 * seller's account: such entries say `certainty: "possible"` and come together.
 */
export const DiagnosisCode = z.enum([
  /** The trust policy does not list this Flowstate principal (another one can assume the role). */
  "PRINCIPAL_NOT_TRUSTED",
  /**
   * The role can be assumed with another external ID than the tenant's (checked with a random one):
   * anyone trusted could act as this tenant (confused deputy).
   */
  "EXTERNAL_ID_CONDITION_MISSING",
  /** No principal can assume the role: its `sts:ExternalId` condition may carry another value. */
  "EXTERNAL_ID_MISMATCH",
  /** No principal can assume the role: the ARN may name an account where the stack is not deployed. */
  "ROLE_IN_OTHER_ACCOUNT",
  /** Products and offers work, agreements or seller currencies do not: the policy predates 2026-08-31. */
  "POLICY_MIGRATION_REQUIRED",
  /** The role is assumed but the catalog read is refused: the inline policy is not Flowstate's. */
  "CATALOG_ACCESS_DENIED",
  /** AWS Marketplace throttled the checks; transient. */
  "UPSTREAM_THROTTLED",
  /** AWS Marketplace or STS did not answer; transient. */
  "UPSTREAM_UNAVAILABLE",
]);
export type DiagnosisCode = z.infer<typeof DiagnosisCode>;

/** What the seller changes, per onboarding path (interface.md §5.3, §9). */
export const Fixes = z.object({ cloudformation: z.string(), terraform: z.string(), console: z.string() });
export type Fixes = z.infer<typeof Fixes>;

export const Diagnosis = z.object({
  code: DiagnosisCode,
  severity: z.enum(["error", "warning"]),
  certainty: z.enum(["certain", "possible"]),
  /** The principal concerned (PRINCIPAL_NOT_TRUSTED). */
  principal: z.string().optional(),
  summary: z.string(),
  fixes: Fixes,
});
export type Diagnosis = z.infer<typeof Diagnosis>;

export const Capability = z.enum(["products", "offers", "seller_currencies", "agreements"]);
export type Capability = z.infer<typeof Capability>;

export const HealthReport = z.object({
  healthy: z.boolean(),
  checked_at: z.iso.datetime({ offset: true }),
  role_arn: z.string(),
  principals: z.array(
    z.object({ principal: z.string(), arn: z.string(), can_assume: z.boolean(), error: z.string().optional() }),
  ),
  capabilities: z.array(
    z.object({
      capability: Capability,
      ok: z.boolean(),
      error: z.string().optional(),
      /**
       * What a passing check still cannot tell (seller_currencies: the Seller entity is readable,
       * but AWS documents no field with the payout currencies, so they stay undetermined).
       */
      note: z.object({ code: CurrenciesUndeterminedReason, detail: z.string() }).optional(),
    }),
  ),
  diagnosis: z.array(Diagnosis),
});
export type HealthReport = z.infer<typeof HealthReport>;

/**
 * The step of POST connect that failed (decisions.md). `external_id_not_enforced`: the role was
 * also assumed with a deliberately wrong external ID, so its trust policy does not insist on the
 * tenant's and any tenant could act in that seller account through Flowstate (confused deputy).
 */
export const VerificationStep = z.enum(["assume_role", "verify_catalog_read", "external_id_not_enforced"]);
export type VerificationStep = z.infer<typeof VerificationStep>;
