import { z } from "zod";
import {
  ApiKeyId,
  EventId,
  ExportJobId,
  InvitationId,
  RequestId,
  SessionId,
  Sub,
  TenantId,
  TenantRole,
} from "../ids.ts";
import { Capability, DiagnosisCode } from "../rest/connector/diagnosis.ts";
import { AgreementStatus } from "../rest/offers/agreements.ts";
import { AgreementId, AwsAccountId } from "../rest/offers/common.ts";
import { ApiKeyActor, EventEnvelope, UserActor } from "./envelope.ts";
import { PartnerEventMetadata } from "./partner.ts";

const OfferAction = z.enum(["create", "clone", "release", "expire"]);
const OfferActionV2 = z.enum([...OfferAction.options, "update"]);
/**
 * An MCP tool call and how it ended: `ok`, `error` (a refusal or failure of the tool's route, with
 * its stable `code`) or `denied` (refused at the door: insufficient scope). Never the arguments:
 * the schemas built from it are strict, so a payload carrying them is refused before it is published.
 */
const McpToolCall = {
  tool: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
  tenant_id: TenantId.optional(),
  outcome: z.enum(["ok", "error", "denied"]),
  code: z.string().max(64).optional(),
  duration_ms: z.number().int().nonnegative(),
};
/**
 * One call of an `McpToolCallsRecorded` batch: the call and the envelope fields its audit row
 * keeps (the caller, a person or an API key, is also the row's subject).
 */
export const McpToolCallRecord = z.strictObject({
  id: EventId,
  occurred_at: z.iso.datetime({ offset: true }),
  actor: z.discriminatedUnion("kind", [UserActor, ApiKeyActor]),
  request_id: RequestId,
  ...McpToolCall,
});
export type McpToolCallRecord = z.infer<typeof McpToolCallRecord>;
/** The most calls one `McpToolCallsRecorded` event carries (~20 KB of calls, far under an entry's 256 KiB). */
export const MCP_TOOL_CALLS_PER_EVENT = 50;

/** The Flowstate principal that reached the seller's AWS account (REST → backend, MCP → mcp-execution). */
const MarketplacePrincipal = z.enum(["backend", "mcp-execution"]);

// offers-svc (v1 had no producer before offers-svc; its fields were settled before the first release).
// Who asked is the envelope's actor (the same on all three: the tracker reports the outcome of their request).
const OfferChangeRequestedV1 = z.object({
  tenant_id: TenantId,
  change_set_id: z.string(),
  action: OfferAction,
  /** release, expire: the offer changed; clone: the original. Absent for create. */
  offer_id: z.string().optional(),
  principal: MarketplacePrincipal,
});
const OfferChangeSucceededV1 = z.object({
  tenant_id: TenantId,
  change_set_id: z.string(),
  action: OfferAction,
  /** The offer created (create, clone) or changed (release, expire). */
  offer_id: z.string(),
  /** Same as offer_id (kept from the first draft of this event). */
  entity_id: z.string().optional(),
  source_offer_id: z.string().optional(),
  principal: MarketplacePrincipal,
});
const OfferChangeFailedV1 = z.object({
  tenant_id: TenantId,
  change_set_id: z.string(),
  action: OfferAction,
  offer_id: z.string().optional(),
  failure_code: z.enum(["CLIENT_ERROR", "SERVER_FAULT", "CANCELLED"]),
  /** AWS's error codes of every failed change, in order. */
  error_codes: z.array(z.string()),
  changes: z.array(z.object({ change_type: z.string(), error_codes: z.array(z.string()) })),
  principal: MarketplacePrincipal,
});

// offers-svc's agreement watch: what a periodic SearchAgreements found new or changed in the
// seller's account (the actor is the system). Ids, states and dates only; AWS's own ids as AWS
// writes them, its statuses lower-cased as the agreements list has them (one enum).
const PurchaseAgreementStatus = AgreementStatus;
const PurchaseAgreementV1 = z.object({
  tenant_id: TenantId,
  agreement_id: AgreementId,
  status: PurchaseAgreementStatus,
  offer_id: z.string().optional(),
  product_id: z.string().optional(),
  buyer_account_id: AwsAccountId.optional(),
  accepted_at: z.iso.datetime({ offset: true }).optional(),
  start_time: z.iso.datetime({ offset: true }).optional(),
  end_time: z.iso.datetime({ offset: true }).optional(),
});

/**
 * The versioned catalog of domain events. A key is `<Type>.v<version>`; adding a version means
 * adding a key, never editing an existing schema (consumers may still receive the old one).
 * Payloads carry ids (`sub`, `tnt_…`), never e-mail addresses or secrets.
 */
const InvitationKindEnum = z.enum(["membership", "ownership"]);

export const eventCatalog = {
  // identity-svc
  "UserSignedUp.v1": z.object({ sub: Sub }),
  "UserProfileUpdated.v1": z.object({ sub: Sub, fields: z.array(z.enum(["name", "picture_url"])) }),
  "AccountDeleted.v1": z.object({ sub: Sub, deleted_at: z.iso.datetime({ offset: true }) }),
  "AccountDisabled.v1": z.object({ sub: Sub, disabled_at: z.iso.datetime({ offset: true }) }),
  /** Someone tried to sign up with this account's e-mail; lets a notifier tell the owner (the API answer hides it). */
  "SignUpAttemptedForExistingAccount.v1": z.object({ sub: Sub }),
  "AccessRevoked.v1": z.object({
    scope: z.enum(["account", "session", "api_key", "membership"]),
    sub: Sub.optional(),
    sid: SessionId.optional(),
    key_id: ApiKeyId.optional(),
    tenant_id: TenantId.optional(),
  }),
  "TenantCreated.v1": z.object({ tenant_id: TenantId, owner_sub: Sub }),
  "TenantRenamed.v1": z.object({ tenant_id: TenantId }),
  "TenantSoftDeleted.v1": z.object({ tenant_id: TenantId, deleted_by: Sub }),
  "TenantOwnershipTransferred.v1": z.object({ tenant_id: TenantId, from_sub: Sub, to_sub: Sub }),
  "MembershipAdded.v1": z.object({ tenant_id: TenantId, sub: Sub, role: TenantRole }),
  "MembershipRoleChanged.v1": z.object({ tenant_id: TenantId, sub: Sub, role: TenantRole }),
  "MembershipRemoved.v1": z.object({ tenant_id: TenantId, sub: Sub }),
  "FeatureFlagChanged.v1": z.object({ tenant_id: TenantId, flag: z.string(), enabled: z.boolean() }),
  "NotificationPreferencesChanged.v1": z.object({ sub: Sub }),
  "ApiKeyCreated.v1": z.object({ tenant_id: TenantId, key_id: ApiKeyId, scope: z.enum(["read", "write"]) }),
  "ApiKeyRevoked.v1": z.object({ tenant_id: TenantId, key_id: ApiKeyId }),
  /**
   * Consent (decisions.md): an invitation to join a tenant (`membership`, addressed to an e-mail
   * address, which the event never carries) or to take it over (`ownership`, subject = the
   * member asked). Each step of its life is an event; acceptance also emits MembershipAdded or
   * TenantOwnershipTransferred.
   */
  "InvitationCreated.v1": z.object({
    invitation_id: InvitationId,
    tenant_id: TenantId,
    kind: InvitationKindEnum,
    role: TenantRole,
    expires_at: z.iso.datetime({ offset: true }),
  }),
  "InvitationAccepted.v1": z.object({
    invitation_id: InvitationId,
    tenant_id: TenantId,
    kind: InvitationKindEnum,
    role: TenantRole,
  }),
  "InvitationDeclined.v1": z.object({ invitation_id: InvitationId, tenant_id: TenantId, kind: InvitationKindEnum }),
  /** Seven days passed without an answer (actor: identity-svc's housekeeping). */
  "InvitationExpired.v1": z.object({ invitation_id: InvitationId, tenant_id: TenantId, kind: InvitationKindEnum }),
  /** Replaced by a newer ownership transfer, or the inviter no longer owns the tenant. */
  "InvitationCancelled.v1": z.object({ invitation_id: InvitationId, tenant_id: TenantId, kind: InvitationKindEnum }),
  // privacy-svc
  "ExportRequested.v1": z.object({ job_id: ExportJobId, sub: Sub }),
  "ExportCompleted.v1": z.object({ job_id: ExportJobId, sub: Sub, expires_at: z.iso.datetime({ offset: true }) }),
  /** `reason`: a stable code (participant_unavailable, account_deleted, timed_out, internal), never text. */
  "ExportFailed.v1": z.object({ job_id: ExportJobId, sub: Sub, reason: z.string().regex(/^[a-z_]+$/) }),
  // connector-svc
  "ConnectorConnected.v1": z.object({ tenant_id: TenantId, account_id: z.string().regex(/^\d{12}$/) }),
  "ConnectorDisconnected.v1": z.object({ tenant_id: TenantId }),
  /**
   * A health check found the connector needing the seller's attention (a role to fix, the policy
   * migration due), or a different problem than last reported; sent once per change of findings,
   * never for transient ones (throttling, an unavailable AWS). The diagnosis codes and the failing
   * capabilities, nothing else.
   */
  "ConnectorAttentionNeeded.v1": z.object({
    tenant_id: TenantId,
    codes: z.array(DiagnosisCode),
    failing: z.array(Capability),
  }),
  // offers-svc (the schemas above the catalog)
  "OfferChangeRequested.v1": OfferChangeRequestedV1,
  "OfferChangeSucceeded.v1": OfferChangeSucceededV1,
  "OfferChangeFailed.v1": OfferChangeFailedV1,
  // v2: the action may be `update` (a draft's details changed); otherwise as v1. offers-svc emits v2.
  "OfferChangeRequested.v2": OfferChangeRequestedV1.extend({ action: OfferActionV2 }),
  "OfferChangeSucceeded.v2": OfferChangeSucceededV1.extend({ action: OfferActionV2 }),
  "OfferChangeFailed.v2": OfferChangeFailedV1.extend({ action: OfferActionV2 }),
  /** A purchase agreement the watch had not seen (a buyer accepted an offer); not sent for what existed when watching began. */
  "PurchaseAgreementCreated.v1": PurchaseAgreementV1,
  /** A recorded agreement changed (status, dates, ...): its state now, the status before, the fields that changed. */
  "PurchaseAgreementChanged.v1": PurchaseAgreementV1.extend({
    previous_status: PurchaseAgreementStatus,
    changed: z
      .array(z.enum(["status", "offer_id", "product_id", "buyer_account_id", "accepted_at", "start_time", "end_time"]))
      .min(1),
  }),
  // mcp-gateway: published without a database (best effort, see its README)
  /**
   * One MCP tool call (`McpToolCall` above, with the caller as `sub`). Published one per call until
   * session 21; mcp-gateway now publishes `McpToolCallsRecorded`, and this entry stays consumed so
   * that a rolling deploy's older gateways are still recorded (ADR 0018). audit-svc records each
   * call of a batch as a row of this type.
   */
  "McpToolCalled.v1": z.strictObject({ ...McpToolCall, sub: Sub }),
  /**
   * Up to 50 tool calls in one event, each with its own event id, time, actor and request id:
   * audit-svc writes one row per call, keyed by the call's id, as for `McpToolCalled.v1` (ADR 0018).
   * The envelope's actor is the system actor `mcp-gateway`; a batch spans tenants and people, so
   * the envelope carries no tenant, subject or request id of its own.
   */
  "McpToolCallsRecorded.v1": z.strictObject({
    calls: z.array(McpToolCallRecord).min(1).max(MCP_TOOL_CALLS_PER_EVENT),
  }),
  // partner-inbound (us-east-1): a Partner Central event's metadata, written back to eu-central-1
  "PartnerEventReceived.v1": PartnerEventMetadata,
} as const satisfies EventCatalog;

/**
 * A catalog: `<Type>.v<version>` → the zod schema of `data`. Production has one (`eventCatalog`);
 * tests of the platform's event path use their own (`test-catalog.ts`), so test-only events never
 * reach a production consumer's type or a production bus rule.
 */
export type EventCatalog = Record<`${string}.v${number}`, z.ZodType>;

export type EventKey = keyof typeof eventCatalog;
export type TypeOf<K> = K extends `${infer T}.v${number}` ? T : never;
type VersionOf<K> = K extends `${string}.v${infer V extends number}` ? V : never;

/** An event of catalog `C`: the envelope with `type`, `version` and `data` narrowed by the entry `K`. */
export type CatalogEvent<C extends EventCatalog, K extends keyof C> = K extends keyof C & string
  ? Omit<EventEnvelope, "type" | "version" | "data"> & {
      type: TypeOf<K>;
      version: VersionOf<K>;
      data: z.infer<C[K]>;
    }
  : never;

/** A fully typed production event. */
export type DomainEvent<K extends EventKey = EventKey> = CatalogEvent<typeof eventCatalog, K>;

export type EventType = TypeOf<EventKey>;

export const eventKey = (type: string, version: number): string => `${type}.v${version}`;

export type ParseEventResult =
  | { ok: true; event: DomainEvent }
  | { ok: false; reason: "invalid_envelope" | "unknown_event" | "invalid_data"; issues: z.core.$ZodIssue[] };

/**
 * Validates an incoming event: the envelope first, then `data` against the catalog entry (the
 * production catalog unless a test passes its own).
 * Never throws; the reason tells a consumer what to log before dead-lettering.
 *
 * @example
 * const r = parseEvent(JSON.parse(body));
 * if (!r.ok) logger.warn({ reason: r.reason }, "rejected event");
 */
export function parseEvent(raw: unknown, catalog: EventCatalog = eventCatalog): ParseEventResult {
  const envelope = EventEnvelope.safeParse(raw);
  if (!envelope.success) return { ok: false, reason: "invalid_envelope", issues: envelope.error.issues };
  const key = eventKey(envelope.data.type, envelope.data.version);
  const schema = (catalog as Record<string, z.ZodType>)[key];
  if (!schema) return { ok: false, reason: "unknown_event", issues: [] };
  const data = schema.safeParse(envelope.data.data);
  if (!data.success) return { ok: false, reason: "invalid_data", issues: data.error.issues };
  return { ok: true, event: { ...envelope.data, data: data.data } as DomainEvent };
}
