import type { Capability, DiagnosisCode, HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import { systemCall } from "@flowstate/shared/seam/call-context";
import type { ServiceContext } from "../context.ts";

/** Findings that pass on their own: never announced, and they leave the last announcement standing. */
const TRANSIENT = new Set<DiagnosisCode>(["UPSTREAM_THROTTLED", "UPSTREAM_UNAVAILABLE"]);

/** What needs the seller's attention in a report, or null when nothing lasting does. */
function findingsOf(report: HealthReport): { codes: DiagnosisCode[]; failing: Capability[] } | null | "transient" {
  const codes = [...new Set(report.diagnosis.map((d) => d.code))].sort();
  if (codes.some((c) => TRANSIENT.has(c))) return "transient";
  const failing = report.capabilities
    .filter((c) => !c.ok)
    .map((c) => c.capability)
    .sort();
  if (report.healthy || (codes.length === 0 && failing.length === 0)) return null;
  return { codes, failing };
}

/**
 * Records what the health report says needs attention and, when it holds a new problem, emits
 * ConnectorAttentionNeeded in the same transaction (notify-svc tells the tenant). New means a code
 * or a failing capability the recorded announcement did not name: a report that names less (a
 * stack update half applied: agreements readable, currencies not yet) is no news, and the recorded
 * announcement stands, so the same problem coming back is not announced twice either. A healthy
 * report clears it, so a problem after a healthy check is announced again. One conditional UPDATE
 * (jsonb containment, `@>`, is the "names nothing new" test); a report with nothing new writes
 * nothing. The system is the actor (the check observed it, whoever asked), so a read by a member
 * needs no credential re-check.
 */
export async function noteAttention(ctx: ServiceContext, tenantId: string, report: HealthReport): Promise<void> {
  const findings = findingsOf(report);
  if (findings === "transient") return;
  const fingerprint = findings ? JSON.stringify(findings) : null;
  const system = systemCall("connector-svc", ctx.deps, { requestId: ctx.requestId, trace: ctx.trace });
  await system.transaction(async (em) => {
    const changed = await em.execute<{ tenant_id: string }[]>(
      `UPDATE ${system.table("marketplace_connector")} SET attention = ?
        WHERE tenant_id = ? AND role_arn IS NOT NULL
          AND CASE WHEN ?::text IS NULL THEN attention IS NOT NULL
                   ELSE attention IS NULL OR NOT attention::jsonb @> ?::jsonb END
        RETURNING tenant_id`,
      [fingerprint, tenantId, fingerprint, fingerprint],
    );
    if (changed.length > 0 && findings)
      system.emit(em, "ConnectorAttentionNeeded.v1", { tenant_id: tenantId, ...findings }, { tenant_id: tenantId });
  });
}
