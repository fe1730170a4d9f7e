import type { Change } from "@aws-sdk/client-marketplace-catalog";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { OfferAction } from "@flowstate/contracts/rest/offers/changes";
import type { CurrencyNotChecked } from "@flowstate/contracts/rest/offers/currencies";
import { newId } from "@flowstate/shared/ids/new-id";
import type { Principal } from "@flowstate/shared/marketplace/principals";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";

/** The StartChangeSet input kept with the intent, to send again on a retry or after a crash. */
export interface StoredRequest {
  ChangeSetName: string;
  ChangeSet: Change[];
}

/** A change the caller asked for, before AWS has seen it. */
export interface Intent {
  tenantId: string;
  action: OfferAction;
  offerId: string | null;
  idempotencyKey: string | null;
  requestHash: string;
  /** AWS's ClientRequestToken: derived from the key when there is one, so duplicates share it. */
  clientToken: string;
  request: StoredRequest;
  actor: EventActor;
  requestId: string | null;
  principal: Principal;
  trace: string | null;
  currencyNotChecked: CurrencyNotChecked | null;
}

export type IntentRow = {
  id: string;
  request_hash: string;
  change_set_id: string | null;
  status: string;
  client_token: string;
  request: StoredRequest;
  currency_not_checked: CurrencyNotChecked | null;
};

const COLUMNS = "id, request_hash, change_set_id, status, client_token, request, currency_not_checked";

/**
 * Records the intent (`submitting`) unless its Idempotency-Key already has a row: `fresh` says
 * whether this call inserted it, `row` is the one row for the key either way.
 *
 * `ON CONFLICT DO NOTHING` names no constraint on purpose. The table has two unique indexes a
 * duplicate collides on: (tenant_id, idempotency_key) and client_token (derived from the same
 * key). With only the first as arbiter, a concurrent duplicate that checks it just before the
 * first insert reaches it goes on to insert, and the client_token index then answers with a
 * unique violation (a 500) instead of "already there": PostgreSQL checks only the arbiter
 * indexes before inserting. Every unique index as arbiter makes any such collision "do nothing".
 */
export async function recordIntent(
  deps: Pick<OffersDeps, "orm" | "schema">,
  intent: Intent,
): Promise<{ row: IntentRow; fresh: boolean }> {
  const table = qualifiedTable(deps.schema, "offer_change");
  const em = deps.orm.em.fork();
  const [inserted] = await em.execute<IntentRow[]>(
    `INSERT INTO ${table}
       (id, tenant_id, action, offer_id, idempotency_key, request_hash, client_token, request, status, actor, request_id,
        principal, trace, currency_not_checked, next_poll_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'submitting', ?, ?, ?, ?, ?, now() + interval '30 seconds')
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      newId("chg"),
      intent.tenantId,
      intent.action,
      intent.offerId,
      intent.idempotencyKey,
      intent.requestHash,
      intent.clientToken,
      JSON.stringify(intent.request),
      JSON.stringify(intent.actor),
      intent.requestId,
      intent.principal,
      intent.trace,
      intent.currencyNotChecked ? JSON.stringify(intent.currencyNotChecked) : null,
    ],
  );
  if (inserted) return { row: inserted, fresh: true };
  const existing = intent.idempotencyKey ? await intentByKey(deps, intent.tenantId, intent.idempotencyKey) : undefined;
  if (!existing) throw new Error("idempotency row vanished between insert and select");
  return { row: existing, fresh: false };
}

/** The intent recorded for this tenant's Idempotency-Key, if any. */
export async function intentByKey(
  deps: Pick<OffersDeps, "orm" | "schema">,
  tenantId: string,
  idempotencyKey: string,
): Promise<IntentRow | undefined> {
  const [row] = await deps.orm.em
    .fork()
    .execute<IntentRow[]>(
      `SELECT ${COLUMNS} FROM ${qualifiedTable(deps.schema, "offer_change")} WHERE tenant_id = ? AND idempotency_key = ?`,
      [tenantId, idempotencyKey],
    );
  return row;
}
