import type { NotificationEndpoint } from "@flowstate/contracts/rest/notify/endpoints";
import { notFound } from "@flowstate/shared/errors/domain-error";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import type { NotifyDeps } from "../deps.ts";
import { ENDPOINT_COLUMNS, type EndpointRow, endpointView } from "./endpoint-view.ts";

/** Enables the endpoint with a clean failure streak; what failed while it was disabled stays in the log (replay it). */
export async function enableEndpoint(
  call: CallContext<NotifyDeps>,
  tenantId: string,
  id: string,
): Promise<NotificationEndpoint> {
  return call.transaction(async (em) => {
    const [row] = await em.execute<EndpointRow[]>(
      `UPDATE ${call.table("endpoint")} SET status = 'enabled', disabled_at = NULL, failures = 0, failing_since = NULL
        WHERE tenant_id = ? AND id = ? RETURNING ${ENDPOINT_COLUMNS}`,
      [tenantId, id],
    );
    if (!row) throw notFound("endpoint");
    return endpointView(row);
  });
}
