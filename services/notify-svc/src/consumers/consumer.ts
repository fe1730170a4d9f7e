import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { NotifyDeps } from "../deps.ts";
import {
  agreement,
  connectorAttention,
  offerFailed,
  offerSucceeded,
  partnerInvitation,
} from "../messages/message-of.ts";
import { enqueueMessage } from "../verbs/enqueue-message.ts";
import { forgetTenant } from "../verbs/forget-tenant.ts";
import { offerResult } from "../verbs/offer-result.ts";

/**
 * notify-svc's consumer (queue `<prefix>-<stage>-notify-svc`): each event a tenant is told about
 * becomes a message and its deliveries, in the transaction that records the event id (a duplicate
 * is a no-op), and an offer change's result also an e-mail to the person who asked for it; a
 * soft-deleted tenant's endpoints, messages and pending personal mails are deleted.
 */
export const notifyConsumer = defineConsumer<NotifyDeps>()({
  service: "notify-svc",
  handlers: {
    "OfferChangeSucceeded.v1": (e, em, deps) => offerResult(em, deps, e, offerSucceeded(e)),
    "OfferChangeSucceeded.v2": (e, em, deps) => offerResult(em, deps, e, offerSucceeded(e)),
    "OfferChangeFailed.v1": (e, em, deps) => offerResult(em, deps, e, offerFailed(e)),
    "OfferChangeFailed.v2": (e, em, deps) => offerResult(em, deps, e, offerFailed(e)),
    "PurchaseAgreementCreated.v1": (e, em, deps) => enqueueMessage(em, deps, e, agreement(e)),
    "PurchaseAgreementChanged.v1": (e, em, deps) => enqueueMessage(em, deps, e, agreement(e)),
    "PartnerEventReceived.v1": (e, em, deps) => enqueueMessage(em, deps, e, partnerInvitation(e)),
    "ConnectorAttentionNeeded.v1": (e, em, deps) => enqueueMessage(em, deps, e, connectorAttention(e)),
    "TenantSoftDeleted.v1": (e, em, deps) => forgetTenant(em, deps, e.data.tenant_id),
  },
});
