import type { RenameTenantRequest, Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { outboxInsert } from "@flowstate/shared/outbox/outbox-insert";
import { eventRow, type ServiceContext } from "../context.ts";
import { table } from "../sql-table.ts";
import { inTenantTransaction } from "./lib/tenant-transaction.ts";

/**
 * Renames a tenant (admin or owner). Four round trips (write-round-trips.test.ts): BEGIN, the
 * credential and tenant locks in one statement, the UPDATE with its TenantRenamed row in one
 * (outbox-insert.ts), COMMIT; both statements prepared (tenant-transaction.ts). An unchanged name
 * writes nothing.
 */
export async function renameTenant({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: RenameTenantRequest;
}): Promise<Tenant> {
  const need = { minRole: "admin", apiKey: false } as const;
  return inTenantTransaction(ctx, tenantId, need, async (sql, { tenant, role, ownerSub }) => {
    if (tenant.name !== input.name) {
      const event = eventRow(ctx, "TenantRenamed.v1", { tenant_id: tenantId }, { tenant_id: tenantId, subject: null });
      const outbox = outboxInsert(ctx.deps.schema, [event]);
      await sql.execute(`WITH ${outbox.sql} UPDATE ${table(ctx, "tenant")} SET name = ? WHERE id = ?`, [
        ...outbox.params,
        input.name,
        tenantId,
      ]);
    }
    // The answer from the rows locked above: no read after the write.
    return { id: tenant.id, name: input.name, owner_sub: ownerSub, role, created_at: tenant.created_at.toISOString() };
  });
}
