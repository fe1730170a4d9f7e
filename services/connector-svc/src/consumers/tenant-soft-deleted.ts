import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import { systemCall } from "@flowstate/shared/seam/call-context";
import type { ConnectorDeps } from "../deps.ts";
import { removeConnector } from "../verbs/disconnect.ts";

/**
 * connector-svc's consumer (queue `<prefix>-<stage>-connector-svc`): a soft-deleted tenant's
 * connector and external ID go (ConnectorDisconnected when a role was connected) in the
 * transaction that records the event, so a duplicate is a no-op; this process then forgets the
 * tenant's seller sessions and opened external ID. main.ts runs it with the service's deps.
 */
export const connectorConsumer = defineConsumer<ConnectorDeps>()({
  service: "connector-svc",
  handlers: {
    "TenantSoftDeleted.v1": async (event, em, deps) => {
      const ctx = systemCall("connector-svc", deps, { trace: event.trace, requestId: event.request_id });
      await removeConnector(ctx, event.data.tenant_id, em);
    },
  },
});
