import { StartChangeSetCommand } from "@aws-sdk/client-marketplace-catalog";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";
import { recordAcknowledged } from "../verbs/record-acknowledged.ts";
import type { ClaimedChange } from "./claim.ts";

/**
 * A change set whose submission was interrupted (the process died between StartChangeSet and
 * recording its id, or before calling it at all): it is submitted again with the same
 * ClientRequestToken and request, so AWS answers the change set it already started, or starts
 * it now. A refusal ends the row (nobody is waiting for it any more: the request that wrote it
 * never answered 202).
 */
export async function resubmit(deps: OffersDeps, row: ClaimedChange): Promise<void> {
  let changeSetId: string;
  try {
    const out = await deps.sellers.withClients(
      row.tenant_id,
      row.principal,
      ({ catalog }) =>
        catalog.send(
          new StartChangeSetCommand({
            Catalog: "AWSMarketplace",
            ClientRequestToken: row.client_token,
            ...row.request,
          }),
        ),
      // Not connected leaves the change set alone until a reconnect (tracker.ts): asked past the cache.
      { recheckAbsent: true },
    );
    changeSetId = out.ChangeSetId ?? "";
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
    if (status >= 400 && status < 500 && status !== 429) {
      await deps.orm.em
        .fork()
        .execute(
          `UPDATE ${qualifiedTable(deps.schema, "offer_change")} SET status = 'rejected' WHERE id = ? AND status = 'submitting'`,
          [row.id],
        );
      deps.logger.warn(
        { change: row.id, tenant_id: row.tenant_id, aws_code: (err as Error).name },
        "resubmission refused",
      );
      return;
    }
    throw err;
  }
  await recordAcknowledged(deps, row.id, changeSetId);
}
