import { nowOf } from "../seller/clock.ts";
import type { ChangeSet, SellerState } from "../seller/types.ts";
import { applyOfferChange, type Workspace } from "./apply-offer-change.ts";

function unlock(seller: SellerState, cs: ChangeSet): void {
  for (const c of cs.changes) if (seller.locks.get(c.EntityId) === cs.id) seller.locks.delete(c.EntityId);
}

/** Ends a change set in a terminal state and releases its entity locks. */
export function finish(seller: SellerState, cs: ChangeSet, status: "SUCCEEDED" | "FAILED" | "CANCELLED"): void {
  cs.status = status;
  cs.endTime = nowOf(seller);
  unlock(seller, cs);
}

/**
 * Applies every change to a copy of the seller's offers; commits only when all succeeded (a
 * change set is atomic). With Intent VALIDATE nothing is committed either way.
 */
export function applyChangeSet(seller: SellerState, cs: ChangeSet): void {
  const ws: Workspace = { seller, offers: new Map(seller.offers), touched: new Set(), now: nowOf(seller) };
  let failed = false;
  for (const change of cs.changes) {
    const errors = applyOfferChange(ws, change);
    change.ErrorDetailList = errors;
    if (errors.length) failed = true;
  }
  if (failed) {
    cs.failureCode = "CLIENT_ERROR";
    cs.failureDescription = "One or more changes failed. See ErrorDetailList of each change.";
    finish(seller, cs, "FAILED");
    return;
  }
  if (cs.intent === "APPLY") {
    for (const id of ws.touched) {
      const offer = ws.offers.get(id);
      if (!offer) continue;
      offer.revision += 1;
      offer.lastModified = ws.now;
      seller.offers.set(id, offer);
    }
  }
  finish(seller, cs, "SUCCEEDED");
}

/**
 * Moves a change set through PREPARING → APPLYING → SUCCEEDED | FAILED on timers, one
 * `changeSetStepMs` each, so clients must poll DescribeChangeSet as they would on AWS (where
 * this takes minutes). A cancelled change set is left alone.
 */
export function scheduleChangeSet(seller: SellerState, cs: ChangeSet): void {
  const step = seller.changeSetStepMs;
  const later = (fn: () => void) => {
    const t = setTimeout(() => {
      seller.timers.delete(t);
      fn();
    }, step);
    t.unref();
    seller.timers.add(t);
  };
  later(() => {
    if (cs.status !== "PREPARING") return;
    cs.status = "APPLYING";
    later(() => {
      if (cs.status === "APPLYING") applyChangeSet(seller, cs);
    });
  });
}
