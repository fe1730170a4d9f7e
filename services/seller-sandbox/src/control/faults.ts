import type { SellerState } from "../seller/types.ts";

/**
 * Counts the call, then applies the account's switched-on faults to one call of `operation`: waits for added latency,
 * then reports a throttle or server error for the protocol to render in its own shape. A fault
 * with `remaining` set disarms itself after that many hits.
 */
export async function applyFaults(seller: SellerState, operation: string): Promise<"throttle" | "error" | undefined> {
  // Every call that reached the account counts, the throttled ones too (rate tests read them: account-view.ts).
  seller.calls.set(operation, (seller.calls.get(operation) ?? 0) + 1);
  let outcome: "throttle" | "error" | undefined;
  for (const fault of [...seller.faults]) {
    if (fault.operations.length && !fault.operations.includes(operation)) continue;
    if (fault.kind === "latency") {
      await new Promise((r) => setTimeout(r, fault.latencyMs));
    } else if (!outcome) {
      outcome = fault.kind;
    } else continue;
    if (fault.remaining !== undefined && --fault.remaining <= 0) seller.faults.splice(seller.faults.indexOf(fault), 1);
  }
  return outcome;
}
