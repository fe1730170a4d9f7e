import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type Change, StartChangeSetCommand } from "@aws-sdk/client-marketplace-catalog";
import type { OfferAction } from "@flowstate/contracts/rest/offers/changes";
import { marketplacePath } from "@flowstate/contracts/rest/offers/common";
import type { CurrencyNotChecked } from "@flowstate/contracts/rest/offers/currencies";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { eventActorOf } from "@flowstate/shared/outbox/event-actor";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { ServiceContext } from "../context.ts";
import { CATALOG, callSeller } from "./call-seller.ts";
import { recordAcknowledged } from "./record-acknowledged.ts";
import { intentByKey, recordIntent, type StoredRequest } from "./record-intent.ts";

/** What a caller asked for: the part an idempotent retry must repeat exactly. */
export interface ChangeIntent {
  action: OfferAction;
  /** release, expire: the offer changed; clone: the original. */
  offerId?: string | undefined;
  /** The validated request (defaults applied). */
  input: unknown;
  idempotencyKey?: string | undefined;
}

/** What the checks of a verb make of an intent: the change set to submit. */
export interface PreparedChange {
  changes: Change[];
  /** create, clone: the currency could not be checked (part of the answer, replays included). */
  currencyNotChecked?: CurrencyNotChecked | undefined;
}

export type ChangeRequest = ChangeIntent & PreparedChange;

/** What a verb that changes one existing offer and takes nothing else is given (release, expire). */
export interface OfferChangeArgs {
  ctx: ServiceContext;
  offerId: string;
  idempotencyKey?: string | undefined;
}

/**
 * The verbs' one way to submit: a replay of an Idempotency-Key that already has its change set is
 * answered from the stored row first, and only otherwise are the checks run (`prepare`: reads of
 * the seller's account, refusals such as "the original is no longer released") and the change
 * set submitted. Checks first would refuse the replay of a change that did what it was asked (a
 * clone that expired its original, a release) or fail it while the seller's account is down.
 */
export async function submitOnce(
  ctx: ServiceContext,
  intent: ChangeIntent,
  prepare: () => Promise<PreparedChange>,
): Promise<ChangeHandle> {
  const replay = await replayOf(ctx, intent);
  if (replay) return replay;
  return submitChange(ctx, { ...intent, ...(await prepare()) });
}

/**
 * `submitOnce` for a verb on one existing offer: the offer is the whole request, so an idempotent
 * retry repeats only the action and the offer.
 */
export function submitOfferChange(
  { ctx, offerId, idempotencyKey }: OfferChangeArgs,
  action: OfferAction,
  prepare: () => Promise<Change[]>,
): Promise<ChangeHandle> {
  return submitOnce(ctx, { action, offerId, input: {}, idempotencyKey }, async () => ({ changes: await prepare() }));
}

const hash = (value: string) => createHash("sha256").update(value).digest("hex");
const requestHashOf = (req: ChangeIntent) =>
  hash(JSON.stringify({ action: req.action, offer: req.offerId ?? null, input: req.input }));

const reused = () =>
  new DomainError(
    "unprocessable",
    "IDEMPOTENCY_KEY_REUSED",
    "this Idempotency-Key was already used for a different request; use a new key for a new request",
  );

export const handleOf = (
  tenantId: string,
  changeSetId: string,
  status: string,
  currencyNotChecked?: CurrencyNotChecked | null,
): ChangeHandle => ({
  change_set_id: changeSetId,
  status: status as ChangeHandle["status"],
  location: marketplacePath(tenantId, `changes/${changeSetId}`),
  ...(currencyNotChecked ? { currency_not_checked: currencyNotChecked } : {}),
});

/**
 * The first answer to this Idempotency-Key when its change set exists (422 when the key came with
 * another request); undefined without a key, for a new key, or when AWS has not acknowledged the
 * key's change set yet (refused, or in flight: submitChange carries on with that row).
 */
async function replayOf(ctx: ServiceContext, intent: ChangeIntent): Promise<ChangeHandle | undefined> {
  if (!intent.idempotencyKey) return undefined;
  const row = await intentByKey(ctx.deps, ctx.tenantId, intent.idempotencyKey);
  if (!row) return undefined;
  if (row.request_hash !== requestHashOf(intent)) throw reused();
  return row.change_set_id
    ? handleOf(ctx.tenantId, row.change_set_id, row.status, row.currency_not_checked)
    : undefined;
}

/**
 * Submits one change set and starts tracking it, idempotently per Idempotency-Key:
 *
 * 1. the intent is recorded first (`submitting`, with the StartChangeSet input and AWS's
 *    ClientRequestToken); the same key with another request is 422, with the same request it
 *    continues that row (a retry, or a concurrent duplicate);
 * 2. StartChangeSet with that token: AWS answers the same change set to every duplicate;
 * 3. the change-set id is recorded and OfferChangeRequested enqueued in one transaction, by
 *    whichever duplicate flips the row first, so the event is emitted once.
 *
 * AWS refusing the request synchronously (or not answering) marks the intent `rejected` (or
 * removes it, without a key) and the caller gets the mapped error; the same key then submits again. A crash between 2 and 3 leaves a `submitting` row that the
 * tracker resubmits with the same token once its lease passed (tracker/resubmit.ts).
 */
async function submitChange(ctx: ServiceContext, req: ChangeRequest): Promise<ChangeHandle> {
  const { deps, tenantId } = ctx;
  const requestHash = requestHashOf(req);
  // ClientRequestToken: 1..36 printable characters (StartChangeSet model).
  const token = req.idempotencyKey ? hash(`${tenantId}\n${req.idempotencyKey}`).slice(0, 36) : randomUUID();
  const request: StoredRequest = {
    ChangeSetName: `Flowstate ${req.action} ${randomBytes(4).toString("hex")}`,
    ChangeSet: req.changes,
  };
  const { row, fresh } = await recordIntent(deps, {
    tenantId,
    action: req.action,
    offerId: req.offerId ?? null,
    idempotencyKey: req.idempotencyKey ?? null,
    requestHash,
    clientToken: token,
    request,
    actor: eventActorOf(ctx.caller),
    requestId: ctx.requestId,
    principal: ctx.principal,
    trace: ctx.trace ?? null,
    currencyNotChecked: req.currencyNotChecked ?? null,
  });
  const em = deps.orm.em.fork();
  if (!fresh) {
    if (row.request_hash !== requestHash) throw reused();
    if (row.change_set_id) return handleOf(tenantId, row.change_set_id, row.status, row.currency_not_checked);
    // AWS refused it last time (or has not answered yet): submit the first request again, same token.
    await em.execute(
      `UPDATE ${qualifiedTable(deps.schema, "offer_change")} SET status = 'submitting' WHERE id = ? AND status = 'rejected'`,
      [row.id],
    );
  }
  // Every duplicate sends the stored form (as jsonb returns it), so AWS sees byte-identical requests.
  const stored = row.request;
  const id = row.id;
  let changeSetId: string;
  try {
    const out = await callSeller(ctx, "offer", ({ catalog }) =>
      catalog.send(new StartChangeSetCommand({ Catalog: CATALOG, ClientRequestToken: row.client_token, ...stored })),
    );
    changeSetId = out.ChangeSetId ?? "";
  } catch (err) {
    // Without a key nobody can come back for this row; with one, a retry (or a concurrent
    // duplicate that AWS did accept) finds it `rejected` and carries on.
    await em.execute(
      req.idempotencyKey
        ? `UPDATE ${qualifiedTable(deps.schema, "offer_change")} SET status = 'rejected' WHERE id = ? AND status = 'submitting'`
        : `DELETE FROM ${qualifiedTable(deps.schema, "offer_change")} WHERE id = ? AND change_set_id IS NULL`,
      [id],
    );
    throw err;
  }
  const status = await recordAcknowledged(deps, id, changeSetId);
  deps.wakeTracker();
  return handleOf(tenantId, changeSetId, status, row.currency_not_checked);
}
