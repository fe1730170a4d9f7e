import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import type { NotificationType } from "@flowstate/contracts/rest/notify/endpoints";

/** What a tenant is told: its kind and data. Ids, states and dates only: never an e-mail address. */
export interface Message {
  tenantId: string;
  type: NotificationType;
  data: Record<string, unknown>;
}

type OfferSucceeded = DomainEvent<"OfferChangeSucceeded.v1" | "OfferChangeSucceeded.v2">;
type OfferFailed = DomainEvent<"OfferChangeFailed.v1" | "OfferChangeFailed.v2">;
type Agreement = DomainEvent<"PurchaseAgreementCreated.v1" | "PurchaseAgreementChanged.v1">;

/** Release and expiry are their own kinds (what a seller watches for); other changes are one kind. */
export function offerSucceeded(e: OfferSucceeded): Message {
  const d = e.data;
  const type =
    d.action === "release" ? "offer.released" : d.action === "expire" ? "offer.expired" : "offer.change_succeeded";
  return {
    tenantId: d.tenant_id,
    type,
    data: {
      tenant_id: d.tenant_id,
      offer_id: d.offer_id,
      action: d.action,
      change_set_id: d.change_set_id,
      state: "succeeded",
      ...(d.source_offer_id ? { source_offer_id: d.source_offer_id } : {}),
    },
  };
}

export function offerFailed(e: OfferFailed): Message {
  const d = e.data;
  return {
    tenantId: d.tenant_id,
    type: "offer.change_failed",
    data: {
      tenant_id: d.tenant_id,
      ...(d.offer_id ? { offer_id: d.offer_id } : {}),
      action: d.action,
      change_set_id: d.change_set_id,
      state: "failed",
      failure_code: d.failure_code,
      error_codes: d.error_codes,
    },
  };
}

/** The agreement watch's events carry ids, statuses and dates only; passed on as they are. */
export function agreement(e: Agreement): Message {
  return {
    tenantId: e.data.tenant_id,
    type: e.type === "PurchaseAgreementCreated" ? "agreement.created" : "agreement.changed",
    data: { ...e.data },
  };
}

/** The connector's findings (diagnosis codes, failing capabilities): the seller has something to fix. */
export function connectorAttention(e: DomainEvent<"ConnectorAttentionNeeded.v1">): Message {
  return {
    tenantId: e.data.tenant_id,
    type: "connector.attention_needed",
    data: { tenant_id: e.data.tenant_id, codes: e.data.codes, failing: e.data.failing },
  };
}

/** Only a new engagement invitation is news to a seller; the other partner events are sync state. */
export function partnerInvitation(e: DomainEvent<"PartnerEventReceived.v1">): Message | null {
  const d = e.data;
  if (d.detail_type !== "Engagement Invitation Created") return null;
  return {
    tenantId: d.tenant_id,
    type: "partner.invitation_received",
    data: {
      tenant_id: d.tenant_id,
      catalog: d.catalog,
      ...(d.engagement_id ? { engagement_id: d.engagement_id } : {}),
      ...(d.invitation_id ? { invitation_id: d.invitation_id } : {}),
      ...(d.opportunity_id ? { opportunity_id: d.opportunity_id } : {}),
      invitation_status: d.invitation_status ?? "PENDING",
    },
  };
}
