import { z } from "zod";
import { Cursor, PageLimit } from "./common.ts";

/** AWS's agreement statuses, lower-cased. */
export const AgreementStatus = z.enum([
  "active",
  "archived",
  "cancelled",
  "expired",
  "renewed",
  "replaced",
  "rolled_back",
  "superseded",
  "terminated",
]);

/** A purchase agreement the seller proposed (an accepted offer). Pay-as-you-go agreements have no end. */
export const Agreement = z.object({
  agreement_id: z.string(),
  status: AgreementStatus,
  offer_id: z.string().optional(),
  product_id: z.string().optional(),
  buyer_account_id: z.string().optional(),
  accepted_at: z.iso.datetime({ offset: true }).optional(),
  start_time: z.iso.datetime({ offset: true }).optional(),
  end_time: z.iso.datetime({ offset: true }).optional(),
});
export type Agreement = z.infer<typeof Agreement>;

/**
 * The agreements as the agreement watch last read them from AWS (offers-svc polls each connected
 * tenant's account periodically), not a live call: `synced_at` says when that was.
 */
export const AgreementList = z.object({
  agreements: z.array(Agreement),
  next_cursor: Cursor.optional(),
  /** When the agreements were last read from the seller's AWS account (at most one watch interval ago while AWS answers). */
  synced_at: z.iso.datetime({ offset: true }),
});
export type AgreementList = z.infer<typeof AgreementList>;

export const ListAgreementsQuery = z.strictObject({
  status: AgreementStatus.optional(),
  limit: PageLimit,
  cursor: Cursor.optional(),
});
export type ListAgreementsQuery = z.infer<typeof ListAgreementsQuery>;
