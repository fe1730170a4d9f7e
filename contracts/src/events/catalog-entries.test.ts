import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { type EventKey, eventCatalog } from "./catalog.ts";

/**
 * One accepted and one rejected payload for every catalog entry. The table is typed by EventKey,
 * so adding an event to the catalog without samples here is a compile error.
 */
const sub = "usr_0123456789ab";
const other = "usr_ba9876543210";
const tenant_id = "tnt_0123456789ab";
const at = "2026-11-21T10:00:00.000Z";
const invitation_id = "inv_0123456789ab";

const samples: Record<EventKey, { accept: unknown; reject: unknown }> = {
  "UserSignedUp.v1": { accept: { sub }, reject: { sub: "alice@example.com" } },
  "UserProfileUpdated.v1": { accept: { sub, fields: ["name"] }, reject: { sub, fields: ["email"] } },
  "AccountDeleted.v1": { accept: { sub, deleted_at: at }, reject: { sub, deleted_at: "now" } },
  "AccountDisabled.v1": { accept: { sub, disabled_at: at }, reject: { sub } },
  "SignUpAttemptedForExistingAccount.v1": { accept: { sub }, reject: { email: "alice@example.com" } },
  "AccessRevoked.v1": { accept: { scope: "account", sub }, reject: { scope: "everything", sub } },
  "TenantCreated.v1": { accept: { tenant_id, owner_sub: sub }, reject: { tenant_id } },
  "TenantRenamed.v1": { accept: { tenant_id }, reject: { tenant_id: "acme" } },
  "TenantSoftDeleted.v1": { accept: { tenant_id, deleted_by: sub }, reject: { tenant_id, deleted_by: "root" } },
  "TenantOwnershipTransferred.v1": {
    accept: { tenant_id, from_sub: sub, to_sub: other },
    reject: { tenant_id, from_sub: sub },
  },
  "MembershipAdded.v1": { accept: { tenant_id, sub, role: "member" }, reject: { tenant_id, sub, role: "superuser" } },
  "MembershipRoleChanged.v1": { accept: { tenant_id, sub, role: "admin" }, reject: { tenant_id, sub } },
  "MembershipRemoved.v1": { accept: { tenant_id, sub }, reject: { sub } },
  "ConnectorAttentionNeeded.v1": {
    accept: { tenant_id, codes: ["POLICY_MIGRATION_REQUIRED"], failing: ["agreements", "seller_currencies"] },
    reject: { tenant_id, codes: ["SOMETHING_ELSE"], failing: [] },
  },
  "FeatureFlagChanged.v1": {
    accept: { tenant_id, flag: "marketplace_offers", enabled: true },
    reject: { tenant_id, flag: "marketplace_offers", enabled: "yes" },
  },
  "NotificationPreferencesChanged.v1": { accept: { sub }, reject: {} },
  "ApiKeyCreated.v1": {
    accept: { tenant_id, key_id: "key_0123456789ab", scope: "read" },
    reject: { tenant_id, key_id: "key_0123456789ab", scope: "admin" },
  },
  "ApiKeyRevoked.v1": {
    accept: { tenant_id, key_id: "key_0123456789ab" },
    reject: { tenant_id, key_id: "fs_live_secret" },
  },
  "InvitationCreated.v1": {
    accept: { invitation_id, tenant_id, kind: "membership", role: "member", expires_at: at },
    reject: { invitation_id, tenant_id, kind: "membership", role: "member" },
  },
  "InvitationAccepted.v1": {
    accept: { invitation_id, tenant_id, kind: "ownership", role: "owner" },
    reject: { invitation_id, tenant_id, kind: "friendship", role: "owner" },
  },
  "InvitationDeclined.v1": {
    accept: { invitation_id, tenant_id, kind: "membership" },
    reject: { invitation_id: "inv", tenant_id, kind: "membership" },
  },
  "InvitationExpired.v1": {
    accept: { invitation_id, tenant_id, kind: "ownership" },
    reject: { invitation_id, tenant_id },
  },
  "InvitationCancelled.v1": {
    accept: { invitation_id, tenant_id, kind: "ownership" },
    reject: { tenant_id, kind: "ownership" },
  },
  "ExportRequested.v1": { accept: { job_id: "exp_0123456789ab", sub }, reject: { job_id: "0123", sub } },
  "ExportCompleted.v1": {
    accept: { job_id: "exp_0123456789ab", sub, expires_at: at },
    reject: { job_id: "exp_0123456789ab", sub },
  },
  "ExportFailed.v1": {
    accept: { job_id: "exp_0123456789ab", sub, reason: "participant_unavailable" },
    reject: { job_id: "exp_0123456789ab", sub, reason: "identity-svc timed out at 10.0.0.3" },
  },
  "ConnectorConnected.v1": {
    accept: { tenant_id, account_id: "111122223333" },
    reject: { tenant_id, account_id: "1111-2222-3333" },
  },
  "ConnectorDisconnected.v1": { accept: { tenant_id }, reject: {} },
  "McpToolCalled.v1": {
    accept: { tool: "list_marketplace_products", tenant_id, sub, outcome: "error", code: "FORBIDDEN", duration_ms: 12 },
    reject: { tool: "list_marketplace_products", sub, outcome: "ok", duration_ms: 3, arguments: { cursor: "x" } },
  },
  "McpToolCallsRecorded.v1": {
    accept: {
      calls: [
        {
          id: "evt_0123456789ab",
          occurred_at: at,
          actor: { kind: "api_key", key_id: "key_0123456789ab", sub },
          request_id: "req_0123456789abcdef",
          tool: "list_marketplace_products",
          tenant_id,
          outcome: "ok",
          duration_ms: 3,
        },
      ],
    },
    // A call carrying its arguments (the batch schema is as strict as the single event's).
    reject: {
      calls: [
        {
          id: "evt_0123456789ab",
          occurred_at: at,
          actor: { kind: "user", sub },
          request_id: "req_0123456789abcdef",
          tool: "list_marketplace_products",
          outcome: "ok",
          duration_ms: 3,
          arguments: { cursor: "x" },
        },
      ],
    },
  },
  "PartnerEventReceived.v1": {
    accept: {
      tenant_id,
      account_id: "222222222222",
      partner_event_id: "d2bcbc35-4400-4e7f-9829-f853bb111df6",
      detail_type: "Engagement Invitation Accepted",
      event_time: at,
      catalog: "AWS",
      engagement_id: "eng-12356whnauo",
      invitation_id: "engi-v7p8z56whnauo",
      invitation_status: "ACCEPTED",
    },
    reject: {
      tenant_id,
      account_id: "222222222222",
      partner_event_id: "x",
      detail_type: "Opportunity Deleted",
      event_time: at,
      catalog: "AWS",
    },
  },
  "OfferChangeRequested.v1": {
    accept: { tenant_id, change_set_id: "cs1", action: "release", offer_id: "offer-1", principal: "backend" },
    reject: { tenant_id, change_set_id: "cs1", action: "publish", principal: "backend" },
  },
  "OfferChangeSucceeded.v1": {
    accept: { tenant_id, change_set_id: "cs1", action: "create", offer_id: "offer-1", principal: "backend" },
    reject: { tenant_id, change_set_id: "cs1", action: "create", principal: "backend" },
  },
  "OfferChangeFailed.v1": {
    accept: {
      tenant_id,
      change_set_id: "cs1",
      action: "release",
      offer_id: "offer-1",
      failure_code: "CLIENT_ERROR",
      error_codes: ["INVALID_BUYER_ACCOUNTS"],
      changes: [{ change_type: "ReleaseOffer", error_codes: ["INVALID_BUYER_ACCOUNTS"] }],
      principal: "mcp-execution",
    },
    reject: { tenant_id, change_set_id: "cs1", action: "release", error_codes: "x", principal: "backend" },
  },
  "OfferChangeRequested.v2": {
    accept: { tenant_id, change_set_id: "cs1", action: "update", offer_id: "offer-1", principal: "backend" },
    reject: { tenant_id, change_set_id: "cs1", action: "publish", principal: "backend" },
  },
  "OfferChangeSucceeded.v2": {
    accept: { tenant_id, change_set_id: "cs1", action: "update", offer_id: "offer-1", principal: "backend" },
    reject: { tenant_id, change_set_id: "cs1", action: "update", principal: "backend" },
  },
  "OfferChangeFailed.v2": {
    accept: {
      tenant_id,
      change_set_id: "cs1",
      action: "update",
      offer_id: "offer-1",
      failure_code: "CLIENT_ERROR",
      error_codes: ["INVALID_BUYER_ACCOUNTS"],
      changes: [{ change_type: "ReleaseOffer", error_codes: ["INVALID_BUYER_ACCOUNTS"] }],
      principal: "mcp-execution",
    },
    reject: { tenant_id, change_set_id: "cs1", action: "update", error_codes: "x", principal: "backend" },
  },
  "PurchaseAgreementCreated.v1": {
    accept: {
      tenant_id,
      agreement_id: "agmt-0123456789abcdefghijklmno",
      status: "active",
      buyer_account_id: "123456789012",
      start_time: at,
    },
    reject: {
      tenant_id,
      agreement_id: "agmt-0123456789abcdefghijklmno",
      status: "active",
      buyer_account_id: "buyer@example.com",
    },
  },
  "PurchaseAgreementChanged.v1": {
    accept: {
      tenant_id,
      agreement_id: "agmt-0123456789abcdefghijklmno",
      status: "cancelled",
      previous_status: "active",
      changed: ["status"],
    },
    reject: {
      tenant_id,
      agreement_id: "agmt-0123456789abcdefghijklmno",
      status: "cancelled",
      previous_status: "active",
      changed: [],
    },
  },
};

describe("event catalog entries", () => {
  for (const key of Object.keys(eventCatalog) as EventKey[]) {
    const { accept, reject } = samples[key];
    it(`${key} accepts a valid payload`, () => {
      assert.equal(eventCatalog[key].safeParse(accept).success, true);
    });
    it(`${key} rejects an invalid payload`, () => {
      assert.equal(eventCatalog[key].safeParse(reject).success, false);
    });
  }
});
