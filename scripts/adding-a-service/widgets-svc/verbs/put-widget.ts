import type { CallContext } from "@flowstate/shared/seam/call-context";
import type { WidgetsDeps } from "../deps.ts";
import type { Widget } from "../registry.ts";

/** Creates or renames a widget in `call.transaction`, which re-checks the caller's credential first. */
export function putWidget(call: CallContext<WidgetsDeps>, tenantId: string, id: string, name: string): Promise<Widget> {
  return call.transaction(async (em) => {
    await em.execute(
      `INSERT INTO ${call.table("widget")} (tenant_id, id, name) VALUES (?, ?, ?)
       ON CONFLICT (tenant_id, id) DO UPDATE SET name = EXCLUDED.name`,
      [tenantId, id, name],
    );
    return { id, tenant_id: tenantId, name };
  });
}
