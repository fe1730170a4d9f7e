import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { OffersDeps } from "../deps.ts";
import { enrollWatch, forgetWatch } from "../watch/forget-watch.ts";
import { forgetTenant } from "./forget-tenant.ts";
import { deleteTenantChanges, resumeTenantChanges } from "./tenant-changes.ts";

/**
 * offers-svc's consumer (queue `<prefix>-<stage>-offers-svc`, from deploy/local/consumers.ts). Each
 * handler runs in the transaction that records the event id, so a duplicate is a no-op. A
 * (re)connect may name another role or account, a disconnect or a soft-deleted tenant must stop
 * using the old one: each drops what this process cached. Besides: a connect resumes the tracking
 * of change sets the tracker left alone while the tenant had no connector; a soft delete deletes
 * the tenant's change-set rows (README "Events"). The agreement watch starts afresh on a connect
 * and stops on a disconnect or soft delete, its recorded agreements deleted (watch/forget-watch.ts).
 */
export const offersConsumer = defineConsumer<OffersDeps>()({
  service: "offers-svc",
  handlers: {
    "ConnectorConnected.v1": async (event, em, deps) => {
      forgetTenant(deps, event.data.tenant_id);
      await resumeTenantChanges(em, deps, event.data.tenant_id);
      await enrollWatch(em, deps, event.data.tenant_id, true);
    },
    "ConnectorDisconnected.v1": async (event, em, deps) => {
      forgetTenant(deps, event.data.tenant_id);
      await forgetWatch(em, deps, event.data.tenant_id);
    },
    "TenantSoftDeleted.v1": async (event, em, deps) => {
      forgetTenant(deps, event.data.tenant_id);
      await deleteTenantChanges(em, deps, event.data.tenant_id);
      await forgetWatch(em, deps, event.data.tenant_id);
    },
  },
});
