import type { EventHandlers } from "@flowstate/shared/consumer/apply-event";
import { applyPartnerEvent } from "../verbs/apply-partner-event.ts";
import { forgetTenant } from "../verbs/forget-tenant.ts";

/**
 * partner-svc's consumer (queue `<prefix>-<stage>-partner-svc`, see deploy/local/definition.ts):
 * partner events become sync state; a soft-deleted tenant's rows are deleted. Each handler runs in
 * the transaction that records the event id, so a duplicate is a no-op.
 */
export const partnerHandlers = (schema: string): EventHandlers => ({
  "PartnerEventReceived.v1": (event, em) => applyPartnerEvent(em, schema, event.data),
  "TenantSoftDeleted.v1": (event, em) => forgetTenant(em, schema, event.data.tenant_id),
});
