import { defineStatelessConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { OffersDeps } from "../deps.ts";
import { forgetTenant } from "./forget-tenant.ts";

type Caches = Pick<OffersDeps, "sellers" | "currencies">;

/**
 * offers-svc's consumer (queue `<prefix>-<stage>-offers-svc`, from deploy/local/consumers.ts). Its
 * effects are this process's caches only (forgetting twice is harmless), so it keeps no
 * processed-event records: a stateless consumer. A (re)connect may name another role or account,
 * a disconnect or a soft-deleted tenant must stop using the old one: each drops what was cached.
 */
export const offersConsumer = defineStatelessConsumer<Caches>()({
  service: "offers-svc",
  handlers: {
    "ConnectorConnected.v1": (event, caches) => forgetTenant(caches, event.data.tenant_id),
    "ConnectorDisconnected.v1": (event, caches) => forgetTenant(caches, event.data.tenant_id),
    "TenantSoftDeleted.v1": (event, caches) => forgetTenant(caches, event.data.tenant_id),
  },
});
