import type { Delivery } from "@flowstate/contracts/rest/notify/endpoints";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { newId } from "@flowstate/shared/ids/new-id";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import { wakeOnCommit } from "../delivery/wake.ts";
import type { NotifyDeps } from "../deps.ts";
import { DELIVERY_COLUMNS, deliveryView } from "./delivery-view.ts";

/**
 * Sends a logged message to its endpoint again: a new delivery of the same message, so the same
 * body under the same `webhook-id` (a receiver that already has it drops it), with its own retries.
 * Another tenant's delivery is missing.
 */
export async function replayDelivery(
  call: CallContext<NotifyDeps>,
  tenantId: string,
  endpointId: string,
  deliveryId: string,
): Promise<Delivery> {
  return call.transaction(async (em) => {
    const d = call.table("delivery");
    const inserted = await em.execute<{ id: string }[]>(
      `INSERT INTO ${d} (id, tenant_id, endpoint_id, message_id, replay_of, next_attempt_at)
       SELECT ?, tenant_id, endpoint_id, message_id, id, now() FROM ${d}
        WHERE tenant_id = ? AND endpoint_id = ? AND id = ?
       RETURNING id`,
      [newId("dlv", { timeOrdered: true }), tenantId, endpointId, deliveryId],
    );
    if (inserted.length === 0) throw notFound("delivery");
    await wakeOnCommit(em, call.deps.schema);
    const [row] = await em.execute<Record<string, unknown>[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM ${d} d JOIN ${call.table("message")} m ON m.id = d.message_id WHERE d.id = ?`,
      [inserted[0]!.id],
    );
    return deliveryView(row!);
  });
}
