import type { RenameTenantRequest, Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { outboxInsert } from "@flowstate/shared/outbox/outbox-insert";
import { eventRow, type ServiceContext } from "../context.ts";
import { table } from "../sql-table.ts";
import { inOneTenantStatement, inTenantTransaction, type LockedTenant } from "./lib/tenant-transaction.ts";

/**
 * Renames a tenant (admin or owner). One round trip (write-round-trips.test.ts): one statement
 * that locks the credential and the tenant rows, checks them, and makes the UPDATE with its
 * TenantRenamed row only if the checks pass and the name differs (inOneTenantStatement). An
 * unchanged name writes nothing. When that statement cannot decide (an API key, not a member, no
 * such tenant), the transaction of four round trips tells the cases apart.
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
  const event = () =>
    eventRow(ctx, "TenantRenamed.v1", { tenant_id: tenantId }, { tenant_id: tenantId, subject: null });
  const answer = ({ tenant, role, ownerSub }: LockedTenant): Tenant =>
    // From the rows locked by the statement: no read after the write.
    ({ id: tenant.id, name: input.name, owner_sub: ownerSub, role, created_at: tenant.created_at.toISOString() });

  const outbox = outboxInsert(ctx.deps.schema, [event()], { keep: "EXISTS (SELECT 1 FROM allowed)" });
  const locked = await inOneTenantStatement(ctx, tenantId, need, {
    when: { sql: "locked.name IS DISTINCT FROM ?", params: [input.name] },
    ctes: {
      sql: `${outbox.sql},
            renamed AS (UPDATE ${table(ctx, "tenant")} SET name = ? WHERE id = ? AND EXISTS (SELECT 1 FROM allowed))`,
      params: [...outbox.params, input.name, tenantId],
    },
  });
  if (locked) return answer(locked);

  return inTenantTransaction(ctx, tenantId, need, async (em, access) => {
    if (access.tenant.name !== input.name) {
      const outbox = outboxInsert(ctx.deps.schema, [event()]);
      await em.execute(`WITH ${outbox.sql} UPDATE ${table(ctx, "tenant")} SET name = ? WHERE id = ?`, [
        ...outbox.params,
        input.name,
        tenantId,
      ]);
    }
    return answer(access);
  });
}
