import type { NotificationEndpoint } from "@flowstate/contracts/rest/notify/endpoints";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import type { NotifyDeps } from "../deps.ts";
import { ENDPOINT_COLUMNS, type EndpointRow, endpointView } from "./endpoint-view.ts";

/** The tenant's endpoints, oldest first (a tenant has a handful; no pagination). */
export async function listEndpoints(
  call: CallContext<NotifyDeps>,
  tenantId: string,
): Promise<{ items: NotificationEndpoint[] }> {
  const rows = await call.deps.orm.em
    .fork()
    .execute<EndpointRow[]>(
      `SELECT ${ENDPOINT_COLUMNS} FROM ${call.table("endpoint")} WHERE tenant_id = ? ORDER BY created_at, id LIMIT 1000`,
      [tenantId],
    );
  return { items: rows.map(endpointView) };
}
