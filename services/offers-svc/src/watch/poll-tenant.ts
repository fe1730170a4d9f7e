import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import { classifyUpstream } from "@flowstate/shared/marketplace/upstream-errors";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";
import { isAccessDenied } from "../marketplace/upstream-errors.ts";
import { agreementOf } from "./agreement-row.ts";
import type { ClaimedWatch } from "./claim.ts";
import { forgetWatch } from "./forget-watch.ts";
import { recordPage } from "./record-page.ts";

export type PollOutcome =
  | { ok: true; created: number; changed: number }
  | { ok: false; failure: "denied" | "unavailable" | "disconnected"; err: unknown };

/** After a throttled or failed poll: the interval doubled per failure in a row, up to 64 intervals. */
export const backoffMs = (intervalMs: number, errors: number) => intervalMs * 2 ** Math.min(errors + 1, 6);

/**
 * One SearchAgreements page of a claimed tenant (the seller's purchase agreements, as the
 * interface's policy allows: PartyType Proposer, AgreementType PurchaseAgreement), through the
 * tenant's cached session (one AssumeRole per credential lifetime, shared/marketplace), recorded
 * with its events (record-page.ts). The next poll goes on from AWS's nextToken, so a seller with
 * more than a page is read a page per interval. Failures are recorded, never thrown:
 * - the role lacks SearchAgreements (the policy before 2026-08-31): 'denied', polled again next
 *   interval (the stack update is picked up without a reconnect), the list answers 500;
 * - throttled, AWS or connector-svc down: 'unavailable', the next poll backs off (backoffMs);
 * - the tenant has no connector any more: it is no longer watched (forget-watch.ts).
 */
export async function pollTenant(deps: OffersDeps, claimed: ClaimedWatch): Promise<PollOutcome> {
  const tenantId = claimed.tenant_id;
  let out: Awaited<ReturnType<typeof search>>;
  try {
    out = await search(deps, claimed);
  } catch (err) {
    if (err instanceof DomainError && err.code === "CONNECTOR_NOT_CONNECTED") {
      await deps.orm.em.fork().transactional((em) => forgetWatch(em, deps, tenantId));
      return { ok: false, failure: "disconnected", err };
    }
    const denied = isAccessDenied(err) && !(err instanceof AssumeRoleFailed);
    const failure = denied ? "denied" : "unavailable";
    const name = err instanceof AssumeRoleFailed ? err.failure.name : classifyUpstream(err).name;
    const delayMs = denied
      ? deps.agreementWatchIntervalMs
      : backoffMs(deps.agreementWatchIntervalMs, claimed.poll_errors);
    deps.logger.warn({ err, tenant_id: tenantId, failure }, "agreement watch poll failed");
    await deps.orm.em.fork().execute(
      `UPDATE ${qualifiedTable(deps.schema, "agreement_watch")}
          SET last_failure = ?, last_failure_name = ?, poll_errors = poll_errors + 1,
              next_poll_at = GREATEST(next_poll_at, now() + make_interval(secs => ?))
        WHERE tenant_id = ?`,
      [failure, name, delayMs / 1000, tenantId],
    );
    return { ok: false, failure, err };
  }
  const page = (out.agreementViewSummaries ?? []).map(agreementOf);
  return { ok: true, ...(await recordPage(deps, tenantId, page, out.nextToken)) };
}

function search(deps: OffersDeps, claimed: ClaimedWatch) {
  return deps.sellers.withClients(
    claimed.tenant_id,
    "backend",
    ({ agreement }) =>
      agreement.send(
        new SearchAgreementsCommand({
          catalog: "AWSMarketplace",
          filters: [
            { name: "PartyType", values: ["Proposer"] },
            { name: "AgreementType", values: ["PurchaseAgreement"] },
          ],
          sort: { sortBy: "EndTime", sortOrder: "DESCENDING" },
          maxResults: 50,
          ...(claimed.page_token ? { nextToken: claimed.page_token } : {}),
        }),
      ),
    // Not connected ends the watch (forget-watch.ts): asked past the cache.
    { recheckAbsent: true },
  );
}
