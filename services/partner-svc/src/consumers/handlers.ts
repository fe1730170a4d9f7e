import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import { schemaOf } from "@flowstate/shared/db/open-database";
import { applyPartnerEvent } from "../verbs/apply-partner-event.ts";
import { forgetTenant } from "../verbs/forget-tenant.ts";

/**
 * partner-svc's consumer (queue `<prefix>-<stage>-partner-svc`, from deploy/local/consumers.ts):
 * partner events become sync state; a soft-deleted tenant's rows are deleted. Each handler runs in
 * the transaction that records the event id, so a duplicate is a no-op.
 */
export const partnerConsumer = defineConsumer()({
  service: "partner-svc",
  handlers: {
    "PartnerEventReceived.v1": (event, em) => applyPartnerEvent(em, schemaOf(em), event.data),
    "TenantSoftDeleted.v1": (event, em) => forgetTenant(em, schemaOf(em), event.data.tenant_id),
  },
});
