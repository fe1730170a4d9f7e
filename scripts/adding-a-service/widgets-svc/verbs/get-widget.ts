import { notFound } from "@flowstate/shared/errors/domain-error";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import type { WidgetsDeps } from "../deps.ts";
import type { Widget } from "../registry.ts";

/** A widget of the tenant the seam let through: the verb trusts `tenantId`, it checks nothing. */
export async function getWidget(call: CallContext<WidgetsDeps>, tenantId: string, id: string): Promise<Widget> {
  const [row] = await call.deps.orm.em
    .fork()
    .execute<Widget[]>(`SELECT id, tenant_id, name FROM ${call.table("widget")} WHERE tenant_id = ? AND id = ?`, [
      tenantId,
      id,
    ]);
  if (!row) throw notFound("widget");
  return row;
}
