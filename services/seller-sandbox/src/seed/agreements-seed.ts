import type { Agreement, AgreementStatus, Offer } from "../seller/types.ts";
import { ID_LENGTH, seededAccountId, seededId } from "./ids.ts";

const DAY = 86_400_000;

/** Purchase agreements on the seeded offers, one per status the Agreements view distinguishes. */
export function seedAgreements(account: string, offers: Offer[], now: number): Agreement[] {
  const released = offers.filter((o) => o.state === "Released");
  const rows: { label: string; status: AgreementStatus; startDaysAgo: number; lengthDays: number | null }[] = [
    { label: "a", status: "ACTIVE", startDaysAgo: 20, lengthDays: 365 },
    { label: "b", status: "ACTIVE", startDaysAgo: 10, lengthDays: null },
    { label: "c", status: "ACTIVE", startDaysAgo: 3, lengthDays: 365 },
    { label: "d", status: "EXPIRED", startDaysAgo: 400, lengthDays: 365 },
    { label: "e", status: "CANCELLED", startDaysAgo: 90, lengthDays: 365 },
    { label: "f", status: "TERMINATED", startDaysAgo: 200, lengthDays: 30 },
  ];
  return rows.map((r, i) => {
    const offer = released[i % released.length] as Offer;
    const start = now - r.startDaysAgo * DAY;
    return {
      id: seededId(account, `agreement/${r.label}`, "agmt", ID_LENGTH.agmt),
      acceptorAccountId: offer.buyerAccounts[0] ?? seededAccountId(account, `public-${r.label}`),
      offerId: offer.id,
      productId: offer.productId,
      acceptanceTime: start - 3_600_000,
      startTime: start,
      endTime: r.lengthDays === null ? null : start + r.lengthDays * DAY,
      status: r.status,
      terms: structuredClone(offer.terms),
    };
  });
}
