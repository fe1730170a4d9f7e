import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import { newEventId } from "@flowstate/shared/outbox/event-id";

const envelope = (type: string, version: number, tenantId: string, source: string, data: object) =>
  ({
    id: newEventId(),
    type,
    version,
    source,
    occurred_at: new Date().toISOString(),
    tenant_id: tenantId,
    actor: { kind: "system", service: source.slice("flowstate.".length) },
    data: { tenant_id: tenantId, ...data },
  }) as unknown as DomainEvent;

const offers = "flowstate.offers-svc";

/**
 * One domain event per notification kind a tenant can be told about (the kinds of
 * contracts/src/rest/notify/endpoints.ts that have a producer), as their producers emit them.
 */
export function eventOfEachKind(tenantId: string): Record<string, DomainEvent> {
  const agreement = {
    agreement_id: "agmt-test0001",
    status: "active",
    offer_id: "offer-abc123",
    product_id: "prod-abc123",
    buyer_account_id: "444455556666",
  };
  return {
    "offer.change_succeeded": envelope("OfferChangeSucceeded", 2, tenantId, offers, {
      change_set_id: "cs1",
      action: "create",
      offer_id: "offer-new1",
      principal: "backend",
    }),
    "offer.released": envelope("OfferChangeSucceeded", 2, tenantId, offers, {
      change_set_id: "cs2",
      action: "release",
      offer_id: "offer-rel1",
      principal: "backend",
    }),
    "offer.expired": envelope("OfferChangeSucceeded", 2, tenantId, offers, {
      change_set_id: "cs3",
      action: "expire",
      offer_id: "offer-exp1",
      principal: "mcp-execution",
    }),
    "offer.change_failed": envelope("OfferChangeFailed", 2, tenantId, offers, {
      change_set_id: "cs4",
      action: "update",
      offer_id: "offer-upd1",
      failure_code: "CLIENT_ERROR",
      error_codes: ["INCOMPATIBLE_PRICING"],
      changes: [{ change_type: "UpdatePricingTerms", error_codes: ["INCOMPATIBLE_PRICING"] }],
      principal: "backend",
    }),
    "agreement.created": envelope("PurchaseAgreementCreated", 1, tenantId, offers, agreement),
    "agreement.changed": envelope("PurchaseAgreementChanged", 1, tenantId, offers, {
      ...agreement,
      status: "terminated",
      previous_status: "active",
      changed: ["status"],
    }),
    "connector.attention_needed": envelope("ConnectorAttentionNeeded", 1, tenantId, "flowstate.connector-svc", {
      codes: ["POLICY_MIGRATION_REQUIRED"],
      failing: ["agreements", "seller_currencies"],
    }),
    "partner.invitation_received": envelope("PartnerEventReceived", 1, tenantId, "flowstate.partner-inbound", {
      account_id: "111122223333",
      partner_event_id: `e-${tenantId}`,
      detail_type: "Engagement Invitation Created",
      event_time: new Date().toISOString(),
      catalog: "Sandbox",
      engagement_id: "eng-abc123",
      invitation_id: "engi-abc123",
      invitation_status: "PENDING",
    }),
  };
}
