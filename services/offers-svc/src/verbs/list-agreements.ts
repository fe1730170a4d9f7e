import type { AgreementList, ListAgreementsQuery } from "@flowstate/contracts/rest/offers/agreements";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { cursorText, cursorTimestamp, pageCursorCodec } from "@flowstate/shared/http/page-cursor";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { mapUpstreamError } from "../marketplace/upstream-errors.ts";
import { AGREEMENT_FIELDS, selectColumns } from "../watch/agreement-row.ts";
import { claimDueWatches } from "../watch/claim.ts";
import { enrollWatch } from "../watch/forget-watch.ts";
import { pollTenant } from "../watch/poll-tenant.ts";

/** After the last row of a page: its end (null for pay-as-you-go) and id, the listing's order. */
const cursor = pageCursorCodec(z.tuple([cursorTimestamp.nullable(), cursorText]));

interface WatchState {
  synced_at: string | null;
  last_failure: "denied" | "unavailable" | null;
  last_failure_name: string | null;
}

/** The interface's answer for a role without SearchAgreements: 500, the cause in the log only. */
const internalError = (cause: unknown) =>
  new DomainError("internal", "INTERNAL_ERROR", "an internal error occurred", { cause });

/**
 * Purchase agreements the seller proposed, latest end first, from what the agreement watch
 * recorded (watch/), with `synced_at`. A tenant read for the first time is enrolled and read now
 * (the same claim as the watch's: still one page per interval). A role that lacks
 * `SearchAgreements` (the policy before 2026-08-31) answers exactly as the interface says: 500
 * INTERNAL_ERROR, the access-denied cause in the log only; after the stack update the next poll
 * (within an interval) reads again, without a reconnect.
 */
export async function listAgreements(args: {
  ctx: ServiceContext;
  query: ListAgreementsQuery;
}): Promise<AgreementList> {
  const { ctx, query } = args;
  const { deps, tenantId } = ctx;
  const after = query.cursor ? cursor.decode(query.cursor) : null;
  // The caller's principal must still reach the seller's account (the role may trust backend only):
  // its cached session, AssumeRole once per credential lifetime, no Marketplace call.
  await deps.sellers
    .withClients(tenantId, ctx.principal, async () => undefined)
    .catch((err: unknown) => {
      throw mapUpstreamError(err, "agreement", ctx);
    });
  let state = await watchState(ctx);
  if (!state) {
    await deps.orm.em.fork().transactional((em) => enrollWatch(em, deps, tenantId, false));
    state = await watchState(ctx);
  }
  if (!state?.synced_at || state.last_failure === "denied") {
    const [claimed] = await claimDueWatches(deps, 1, tenantId);
    if (claimed) {
      const outcome = await pollTenant(deps, claimed);
      if (!outcome.ok) {
        if (outcome.failure === "denied") throw internalError(outcome.err);
        throw mapUpstreamError(outcome.err, "agreement", ctx);
      }
      state = await watchState(ctx);
    } else if (state?.last_failure === "denied") {
      throw internalError(new Error(`SearchAgreements refused at the last poll: ${state.last_failure_name}`));
    }
  }
  if (!state?.synced_at && !state?.last_failure) state = await awaitFirstPass(ctx, state);
  if (!state?.synced_at) {
    // Still being read by the watch after the wait, or its last poll failed and it waits to retry.
    throw new DomainError(
      "unavailable",
      "UPSTREAM_UNAVAILABLE",
      "the agreements are being read from AWS; retry shortly",
      {
        retryAfter: 2,
      },
    );
  }
  const rows = await deps.orm.em.fork().execute<Record<string, string | null>[]>(
    `SELECT agreement_id, ${selectColumns(AGREEMENT_FIELDS)} FROM ${qualifiedTable(deps.schema, "agreement")}
      WHERE tenant_id = ? ${query.status ? "AND status = ?" : ""}
        ${after ? "AND (coalesce(end_time, 'infinity'), agreement_id) < (coalesce(?::timestamptz, 'infinity'), ?)" : ""}
      ORDER BY coalesce(end_time, 'infinity') DESC, agreement_id DESC
      LIMIT ?`,
    [tenantId, ...(query.status ? [query.status] : []), ...(after ? after : []), query.limit + 1],
  );
  const page = rows.slice(0, query.limit).map((r) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) if (v !== null) out[k] = v;
    return out as unknown as AgreementList["agreements"][number];
  });
  const last = page.at(-1);
  return {
    agreements: page,
    ...(rows.length > query.limit && last
      ? { next_cursor: cursor.encode([last.end_time ?? null, last.agreement_id]) }
      : {}),
    synced_at: state.synced_at,
  };
}

/** How long a first read waits for the watch's first pass over the tenant (under the gateway's 10 s relay timeout). */
const FIRST_PASS_WAIT_MS = 5_000;
const FIRST_PASS_CHECK_MS = 100;

/**
 * A tenant never read and no failure recorded: the watch holds its claim and is reading it now (a
 * tenant just connected is enrolled at once). Rather than answer 503 to the first read after a
 * connect, wait for that pass: its rows (synced_at set) or its failure (last_failure set, answered
 * below as the failure it is: a persistent throttle stays a 503 with Retry-After, never a late
 * 200), whichever comes first, for at most FIRST_PASS_WAIT_MS.
 */
async function awaitFirstPass(ctx: ServiceContext, state: WatchState | undefined): Promise<WatchState | undefined> {
  const until = Date.now() + FIRST_PASS_WAIT_MS;
  while (Date.now() < until && !state?.synced_at && !state?.last_failure) {
    await new Promise((r) => setTimeout(r, FIRST_PASS_CHECK_MS));
    state = await watchState(ctx);
  }
  return state;
}

async function watchState(ctx: ServiceContext): Promise<WatchState | undefined> {
  const [row] = await ctx.deps.orm.em
    .fork()
    .execute<WatchState[]>(
      `SELECT ${selectColumns(["synced_at"])}, last_failure, last_failure_name FROM ${qualifiedTable(ctx.deps.schema, "agreement_watch")} WHERE tenant_id = ?`,
      [ctx.tenantId],
    );
  return row;
}
