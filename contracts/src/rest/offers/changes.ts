import { z } from "zod";
import { pageCursor, pageQuery } from "../page.ts";
import { ChangeSetStatus } from "./offers.ts";

/** What a change set was submitted for; every mutation route is one action (update: a draft's details). */
export const OfferAction = z.enum(["create", "clone", "release", "expire", "update"]);
export type OfferAction = z.infer<typeof OfferAction>;

/**
 * One error of one change, as AWS reported it asynchronously (`ErrorDetailList`): AWS's `code`
 * (e.g. `INVALID_BUYER_ACCOUNTS`) and our own sentence for a seller. AWS's message text is not
 * repeated.
 */
export const ChangeError = z.object({ code: z.string(), message: z.string() });
export type ChangeError = z.infer<typeof ChangeError>;

/**
 * GET .../changes/{change_set_id}: a change set as offers-svc tracks it. `offer_id` is the offer
 * the change set created (create, clone: known once it succeeded) or changed (release, expire);
 * `source_offer_id` is a clone's original.
 */
export const OfferChange = z.object({
  change_set_id: z.string(),
  action: OfferAction,
  status: ChangeSetStatus,
  offer_id: z.string().optional(),
  source_offer_id: z.string().optional(),
  submitted_at: z.iso.datetime({ offset: true }),
  completed_at: z.iso.datetime({ offset: true }).optional(),
  /** AWS's FailureCode: CLIENT_ERROR (see the changes' errors) or SERVER_FAULT (AWS's side; submit again). */
  failure_code: z.enum(["CLIENT_ERROR", "SERVER_FAULT"]).optional(),
  changes: z.array(
    z.object({ change_type: z.string(), offer_id: z.string().optional(), errors: z.array(ChangeError) }),
  ),
});
export type OfferChange = z.infer<typeof OfferChange>;

/**
 * GET .../offers/{offer_id}/changes: the offer's history as Flowstate submitted it, newest first:
 * the change set that created it (create, clone), its updates, release and expiry, and the clones
 * made from it (their `source_offer_id` is this offer). Changes made outside Flowstate (AWS's
 * portal) are not in it.
 */
export const OfferHistoryQuery = z.strictObject(pageQuery(pageCursor(200)));
export type OfferHistoryQuery = z.infer<typeof OfferHistoryQuery>;
export const OfferHistory = z.object({ changes: z.array(OfferChange), next_cursor: z.string().nullable() });
export type OfferHistory = z.infer<typeof OfferHistory>;
