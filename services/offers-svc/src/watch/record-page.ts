import type { Agreement } from "@flowstate/contracts/rest/offers/agreements";
import { emitEvent } from "@flowstate/shared/seam/emit-event";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";
import { AGREEMENT_FIELDS, selectColumns } from "./agreement-row.ts";

type Field = (typeof AGREEMENT_FIELDS)[number];
type Row = { agreement_id: string } & Record<Field, string | null>;

const actor = { kind: "system", service: "offers-svc" } as const;

/**
 * Records one SearchAgreements page for a tenant in one transaction, with its events: an
 * agreement not seen before is PurchaseAgreementCreated, a recorded one whose fields differ is
 * PurchaseAgreementChanged, an unchanged one nothing. The tenant's watch row is locked first, so
 * two pollers (a lease that ran out, a read and the watch) record one after the other and the
 * second finds nothing new: exactly one event per new or changed agreement, whatever the
 * restarts. The first full pass (baseline) records what existed before watching began, silently.
 * A tenant no longer watched (disconnected, deleted meanwhile) records nothing.
 */
export async function recordPage(
  deps: Pick<OffersDeps, "orm" | "schema">,
  tenantId: string,
  agreements: Agreement[],
  nextToken: string | undefined,
): Promise<{ created: number; changed: number }> {
  const watch = qualifiedTable(deps.schema, "agreement_watch");
  const table = qualifiedTable(deps.schema, "agreement");
  return deps.orm.em.fork().transactional(async (em) => {
    const [row] = await em.execute<{ baseline_done: boolean }[]>(
      `SELECT baseline_done FROM ${watch} WHERE tenant_id = ? FOR UPDATE`,
      [tenantId],
    );
    if (!row) return { created: 0, changed: 0 };
    const ids = agreements.map((a) => a.agreement_id);
    const known = new Map(
      (ids.length
        ? await em.execute<Row[]>(
            `SELECT agreement_id, ${selectColumns(AGREEMENT_FIELDS)} FROM ${table} WHERE tenant_id = ? AND agreement_id IN (${ids.map(() => "?").join(", ")})`,
            [tenantId, ...ids],
          )
        : []
      ).map((r) => [r.agreement_id, r]),
    );
    let created = 0;
    let changed = 0;
    for (const a of agreements) {
      const values = AGREEMENT_FIELDS.map((f) => a[f] ?? null);
      const before = known.get(a.agreement_id);
      const data = { tenant_id: tenantId, ...a };
      if (!before) {
        await em.execute(
          `INSERT INTO ${table} (tenant_id, agreement_id, ${AGREEMENT_FIELDS.join(", ")})
           VALUES (?, ?, ${AGREEMENT_FIELDS.map(() => "?").join(", ")})`,
          [tenantId, a.agreement_id, ...values],
        );
        created++;
        if (row.baseline_done)
          emitEvent("offers-svc", em, "PurchaseAgreementCreated.v1", data, { tenant_id: tenantId, actor });
        continue;
      }
      const diff = AGREEMENT_FIELDS.filter((f) => before[f] !== (a[f] ?? null));
      if (!diff.length) continue;
      await em.execute(
        `UPDATE ${table} SET ${AGREEMENT_FIELDS.map((f) => `${f} = ?`).join(", ")}, changed_at = now()
          WHERE tenant_id = ? AND agreement_id = ?`,
        [...values, tenantId, a.agreement_id],
      );
      changed++;
      if (row.baseline_done) {
        emitEvent(
          "offers-svc",
          em,
          "PurchaseAgreementChanged.v1",
          { ...data, previous_status: before.status as Agreement["status"], changed: diff },
          { tenant_id: tenantId, actor },
        );
      }
    }
    await em.execute(
      `UPDATE ${watch}
          SET page_token = ?, baseline_done = baseline_done OR ?, synced_at = now(),
              last_failure = NULL, last_failure_name = NULL, poll_errors = 0
        WHERE tenant_id = ?`,
      [nextToken ?? null, nextToken === undefined, tenantId],
    );
    return { created, changed };
  });
}
