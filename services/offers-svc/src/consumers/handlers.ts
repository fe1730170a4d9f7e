import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { OffersDeps } from "../deps.ts";
import { forgetTenant } from "./forget-tenant.ts";
import { deleteTenantChanges, resumeTenantChanges } from "./tenant-changes.ts";

/**
 * offers-svc's consumer (queue `<prefix>-<stage>-offers-svc`, from deploy/local/consumers.ts). Each
 * handler runs in the transaction that records the event id, so a duplicate is a no-op. A
 * (re)connect may name another role or account, a disconnect or a soft-deleted tenant must stop
 * using the old one: each drops what this process cached. Besides: a connect resumes the tracking
 * of change sets the tracker left alone while the tenant had no connector; a soft delete deletes
 * the tenant's change-set rows (README "Events").
 */
export const offersConsumer = defineConsumer<OffersDeps>()({
  service: "offers-svc",
  handlers: {
    "ConnectorConnected.v1": async (event, em, deps) => {
      forgetTenant(deps, event.data.tenant_id);
      await resumeTenantChanges(em, deps, event.data.tenant_id);
    },
    "ConnectorDisconnected.v1": (event, _em, deps) => forgetTenant(deps, event.data.tenant_id),
    "TenantSoftDeleted.v1": async (event, em, deps) => {
      forgetTenant(deps, event.data.tenant_id);
      await deleteTenantChanges(em, deps, event.data.tenant_id);
    },
  },
});
