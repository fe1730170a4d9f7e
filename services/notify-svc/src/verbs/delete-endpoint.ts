import { notFound } from "@flowstate/shared/errors/domain-error";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import type { NotifyDeps } from "../deps.ts";

/** Removes the endpoint, its deliveries with it (pending ones are never sent). Another tenant's is missing. */
export async function deleteEndpoint(call: CallContext<NotifyDeps>, tenantId: string, id: string): Promise<void> {
  await call.transaction(async (em) => {
    const gone = await em.execute<{ id: string }[]>(
      `DELETE FROM ${call.table("endpoint")} WHERE tenant_id = ? AND id = ? RETURNING id`,
      [tenantId, id],
    );
    if (gone.length === 0) throw notFound("endpoint");
  });
}
