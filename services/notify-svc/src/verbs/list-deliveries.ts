import { DeliveryId } from "@flowstate/contracts/ids";
import type { DeliveryList, DeliveryListQuery } from "@flowstate/contracts/rest/notify/endpoints";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { pageCursorCodec } from "@flowstate/shared/http/page-cursor";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import { z } from "zod";
import type { NotifyDeps } from "../deps.ts";
import { DELIVERY_COLUMNS, deliveryView } from "./delivery-view.ts";

/** A position: the last delivery's id (time-ordered ids sort by creation). */
const cursor = pageCursorCodec(z.tuple([DeliveryId]));

/** The endpoint's delivery log, newest first, keyset-paged on the id. Another tenant's endpoint is missing. */
export async function listDeliveries(
  call: CallContext<NotifyDeps>,
  tenantId: string,
  endpointId: string,
  query: DeliveryListQuery,
): Promise<DeliveryList> {
  const after = query.cursor ? cursor.decode(query.cursor)[0] : null;
  const em = call.deps.orm.em.fork();
  const [endpoint] = await em.execute(`SELECT 1 FROM ${call.table("endpoint")} WHERE tenant_id = ? AND id = ?`, [
    tenantId,
    endpointId,
  ]);
  if (!endpoint) throw notFound("endpoint");
  const rows = await em.execute<Record<string, unknown>[]>(
    `SELECT ${DELIVERY_COLUMNS} FROM ${call.table("delivery")} d JOIN ${call.table("message")} m ON m.id = d.message_id
      WHERE d.tenant_id = ? AND d.endpoint_id = ? ${after ? "AND d.id < ?" : ""}
      ORDER BY d.id DESC LIMIT ?`,
    [tenantId, endpointId, ...(after ? [after] : []), query.limit + 1],
  );
  const more = rows.length > query.limit;
  const items = (more ? rows.slice(0, query.limit) : rows).map(deliveryView);
  return { items, next_cursor: more ? cursor.encode([items[items.length - 1]!.id]) : null };
}
