import type { Delivery } from "@flowstate/contracts/rest/notify/endpoints";
import { iso, isoOrNull } from "./endpoint-view.ts";

/** The columns of a delivery as the log shows it (`d` the delivery, `m` its message). */
export const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.message_id, m.type, d.status, d.attempts, d.last_status_code,
  d.last_error, d.next_attempt_at, d.delivered_at, d.created_at, d.replay_of`;

export function deliveryView(r: Record<string, unknown>): Delivery {
  return {
    id: r.id as string,
    endpoint_id: r.endpoint_id as string,
    message_id: r.message_id as string,
    type: r.type as Delivery["type"],
    status: r.status as Delivery["status"],
    attempts: Number(r.attempts),
    last_status_code: r.last_status_code == null ? null : Number(r.last_status_code),
    last_error: (r.last_error as string | null) ?? null,
    next_attempt_at: isoOrNull(r.next_attempt_at),
    delivered_at: isoOrNull(r.delivered_at),
    created_at: iso(r.created_at),
    replay_of: (r.replay_of as string | null) ?? null,
  };
}
