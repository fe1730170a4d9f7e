import { type EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import { ApiKeyId, ExportJobId, InvitationId, SessionId, Sub } from "@flowstate/contracts/ids";
import { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { z } from "zod";

/**
 * The kinds of value an audit summary may hold: each is closed (an enum, a boolean, a number, a
 * timestamp, an identifier of a fixed format, a code without spaces), so none can carry an
 * e-mail address, a name, an IP address, a token, a key or a user's free text. A field's value
 * is checked against its kind when the row is written; a value that does not fit is left out.
 * `summary.test.ts` feeds every kind such values and expects each refused.
 */
export const kinds = {
  sub: Sub,
  apiKeyId: ApiKeyId,
  sessionId: SessionId,
  exportJobId: ExportJobId,
  invitationId: InvitationId,
  timestamp: z.iso.datetime({ offset: true }),
  boolean: z.boolean(),
  durationMs: z.number().int().nonnegative().max(86_400_000),
  awsAccountId: z.string().regex(/^\d{12}$/),
  /** Marketplace offer ids (`offer-` and 13 characters) and change-set ids (25), as AWS mints them. */
  offerId: z.string().regex(/^offer-[a-z0-9]{13}$/),
  changeSetId: z.string().regex(/^[a-z0-9]{25}$/),
  /** Purchase agreement ids (`agmt-` and 25 characters, as AWS mints them). */
  agreementId: z.string().regex(/^agmt-[a-z0-9]{25}$/),
  /** A stable machine code in upper snake case: Flowstate's problem codes, the Catalog API's change errors. */
  code: z.string().regex(/^[A-Z][A-Z0-9_]{1,63}$/),
  codes: z.array(z.string().regex(/^[A-Z][A-Z0-9_]{1,63}$/)).max(20),
  /** Why an export failed (contracts: "a stable code, never text"); the values privacy-svc emits. */
  exportFailure: z.enum(["participant_unavailable", "account_deleted", "timed_out", "internal"]),
  /** An MCP tool's name: snake_case words without digits (a hex token fits the catalog's looser pattern). */
  toolName: z
    .string()
    .regex(/^[a-z]+(_[a-z]+){0,10}$/)
    .max(64),
  /** Partner Central ids as the events carry them (`O123…`, `eng-…`, `engi-…`); ARNs are left out. */
  opportunityId: z.string().regex(/^O[0-9]{1,20}$/),
  engagementId: z.string().regex(/^eng-[a-z0-9]{1,64}$/),
  engagementInvitationId: z.string().regex(/^engi-[a-z0-9]{1,64}$/),
  flag: z.enum(Object.keys(FeatureFlags.shape) as [keyof FeatureFlags, ...(keyof FeatureFlags)[]]),
} as const;

type Shape<K extends EventKey> = (typeof eventCatalog)[K] extends z.ZodObject<infer S> ? S : never;
/** An enum (or array of enum values) straight from the event's own schema: closed by construction. */
const own = <K extends EventKey, F extends keyof Shape<K> & string>(key: K, field: F) =>
  (eventCatalog[key] as unknown as z.ZodObject<Shape<K>>).shape[field] as unknown as z.ZodType;

/** A field of the summary: the value's kind (`kinds` above, or an enum of the event's own schema). */
export type SummaryField = z.ZodType;

/**
 * Per catalog entry, the fields of `data` an audit row keeps, or `null`: that event stores no
 * summary (the envelope's actor, subject, tenant and request id say enough). Typed over the whole
 * catalog, so a new event is a compile error here until someone decides; `summary.test.ts` also
 * checks each listed field exists in the event's schema.
 */
export const summaryAllowList = {
  "UserSignedUp.v1": null,
  "UserProfileUpdated.v1": { fields: own("UserProfileUpdated.v1", "fields") },
  "AccountDeleted.v1": { deleted_at: kinds.timestamp },
  "AccountDisabled.v1": { disabled_at: kinds.timestamp },
  "SignUpAttemptedForExistingAccount.v1": null,
  "AccessRevoked.v1": { scope: own("AccessRevoked.v1", "scope"), sid: kinds.sessionId, key_id: kinds.apiKeyId },
  "TenantCreated.v1": { owner_sub: kinds.sub },
  "TenantRenamed.v1": null,
  "TenantSoftDeleted.v1": { deleted_by: kinds.sub },
  "TenantOwnershipTransferred.v1": { from_sub: kinds.sub, to_sub: kinds.sub },
  "MembershipAdded.v1": { role: own("MembershipAdded.v1", "role") },
  "MembershipRoleChanged.v1": { role: own("MembershipRoleChanged.v1", "role") },
  "MembershipRemoved.v1": null,
  "FeatureFlagChanged.v1": { flag: kinds.flag, enabled: kinds.boolean },
  "NotificationPreferencesChanged.v1": null,
  "ApiKeyCreated.v1": { key_id: kinds.apiKeyId, scope: own("ApiKeyCreated.v1", "scope") },
  "ApiKeyRevoked.v1": { key_id: kinds.apiKeyId },
  "InvitationCreated.v1": {
    invitation_id: kinds.invitationId,
    kind: own("InvitationCreated.v1", "kind"),
    role: own("InvitationCreated.v1", "role"),
    expires_at: kinds.timestamp,
  },
  "InvitationAccepted.v1": {
    invitation_id: kinds.invitationId,
    kind: own("InvitationAccepted.v1", "kind"),
    role: own("InvitationAccepted.v1", "role"),
  },
  "InvitationDeclined.v1": { invitation_id: kinds.invitationId, kind: own("InvitationDeclined.v1", "kind") },
  "InvitationExpired.v1": { invitation_id: kinds.invitationId, kind: own("InvitationExpired.v1", "kind") },
  "InvitationCancelled.v1": { invitation_id: kinds.invitationId, kind: own("InvitationCancelled.v1", "kind") },
  "ExportRequested.v1": { job_id: kinds.exportJobId },
  "ExportCompleted.v1": { job_id: kinds.exportJobId, expires_at: kinds.timestamp },
  "ExportFailed.v1": { job_id: kinds.exportJobId, reason: kinds.exportFailure },
  "ConnectorConnected.v1": { account_id: kinds.awsAccountId },
  "ConnectorDisconnected.v1": null,
  "ConnectorAttentionNeeded.v1": {
    codes: kinds.codes,
    failing: own("ConnectorAttentionNeeded.v1", "failing"),
  },
  "OfferChangeRequested.v1": {
    change_set_id: kinds.changeSetId,
    action: own("OfferChangeRequested.v1", "action"),
    offer_id: kinds.offerId,
    principal: own("OfferChangeRequested.v1", "principal"),
  },
  "OfferChangeSucceeded.v1": {
    change_set_id: kinds.changeSetId,
    action: own("OfferChangeSucceeded.v1", "action"),
    offer_id: kinds.offerId,
    source_offer_id: kinds.offerId,
    principal: own("OfferChangeSucceeded.v1", "principal"),
  },
  "OfferChangeFailed.v1": {
    change_set_id: kinds.changeSetId,
    action: own("OfferChangeFailed.v1", "action"),
    offer_id: kinds.offerId,
    failure_code: own("OfferChangeFailed.v1", "failure_code"),
    error_codes: kinds.codes,
    principal: own("OfferChangeFailed.v1", "principal"),
  },
  "OfferChangeRequested.v2": {
    change_set_id: kinds.changeSetId,
    action: own("OfferChangeRequested.v2", "action"),
    offer_id: kinds.offerId,
    principal: own("OfferChangeRequested.v2", "principal"),
  },
  "OfferChangeSucceeded.v2": {
    change_set_id: kinds.changeSetId,
    action: own("OfferChangeSucceeded.v2", "action"),
    offer_id: kinds.offerId,
    source_offer_id: kinds.offerId,
    principal: own("OfferChangeSucceeded.v2", "principal"),
  },
  "OfferChangeFailed.v2": {
    change_set_id: kinds.changeSetId,
    action: own("OfferChangeFailed.v2", "action"),
    offer_id: kinds.offerId,
    failure_code: own("OfferChangeFailed.v2", "failure_code"),
    error_codes: kinds.codes,
    principal: own("OfferChangeFailed.v2", "principal"),
  },
  "PurchaseAgreementCreated.v1": {
    agreement_id: kinds.agreementId,
    status: own("PurchaseAgreementCreated.v1", "status"),
    offer_id: kinds.offerId,
    buyer_account_id: kinds.awsAccountId,
  },
  "PurchaseAgreementChanged.v1": {
    agreement_id: kinds.agreementId,
    status: own("PurchaseAgreementChanged.v1", "status"),
    previous_status: own("PurchaseAgreementChanged.v1", "previous_status"),
    offer_id: kinds.offerId,
    changed: own("PurchaseAgreementChanged.v1", "changed"),
  },

  "McpToolCalled.v1": {
    tool: kinds.toolName,
    outcome: own("McpToolCalled.v1", "outcome"),
    code: kinds.code,
    duration_ms: kinds.durationMs,
  },
  // Never a row of its own: each call is recorded as an McpToolCalled.v1 row (record-tool-calls.ts).
  "McpToolCallsRecorded.v1": null,
  "PartnerEventReceived.v1": {
    detail_type: own("PartnerEventReceived.v1", "detail_type"),
    catalog: own("PartnerEventReceived.v1", "catalog"),
    account_id: kinds.awsAccountId,
    opportunity_id: kinds.opportunityId,
    engagement_id: kinds.engagementId,
    invitation_id: kinds.engagementInvitationId,
    invitation_status: own("PartnerEventReceived.v1", "invitation_status"),
  },
} as const satisfies { [K in EventKey]: { [F in keyof Shape<K>]?: SummaryField } | null };

/**
 * The summary of one event: its allow-listed fields whose values fit their kind, or `null` when
 * the event has no entry or nothing fits. `dropped` names fields whose value did not fit (logged
 * by name, never by value).
 */
export function summarize(key: string, data: unknown): { summary: Record<string, unknown> | null; dropped: string[] } {
  const entry = Object.hasOwn(summaryAllowList, key)
    ? (summaryAllowList as Record<string, Record<string, SummaryField> | null>)[key]
    : null;
  if (!entry || typeof data !== "object" || data === null) return { summary: null, dropped: [] };
  const summary: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [field, schema] of Object.entries(entry)) {
    const value = (data as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) summary[field] = parsed.data;
    else dropped.push(field);
  }
  return { summary: Object.keys(summary).length ? summary : null, dropped };
}
