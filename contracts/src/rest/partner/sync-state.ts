import { z } from "zod";
import { AwsAccountId, InvitationStatus, PartnerDetailType, PartnerRef } from "../../events/partner.ts";
import { Timestamp } from "../identity/common.ts";
import { pageCursor, pageOf, pageQuery } from "../page.ts";

/**
 * The partner-program sync state of a tenant (partner-svc): the latest state per opportunity and
 * per engagement, from AWS Partner Central's events. Tenant-level data: not in a personal export.
 */
const Catalog = z.enum(["AWS", "Sandbox"]);

export const PartnerOpportunity = z.object({
  opportunity_id: PartnerRef,
  catalog: Catalog,
  account_id: AwsAccountId,
  /** From Opportunity Accepted / Rejected; null until AWS reviewed it. */
  review_outcome: z.enum(["accepted", "rejected"]).nullable(),
  last_event_type: PartnerDetailType,
  last_event_at: Timestamp,
  first_seen_at: Timestamp,
  updated_at: Timestamp,
});
export type PartnerOpportunity = z.infer<typeof PartnerOpportunity>;

export const PartnerEngagement = z.object({
  engagement_id: PartnerRef,
  catalog: Catalog,
  account_id: AwsAccountId,
  invitation_id: PartnerRef.nullable(),
  invitation_status: InvitationStatus.nullable(),
  opportunity_ids: z.array(PartnerRef),
  last_event_type: PartnerDetailType,
  last_event_at: Timestamp,
  first_seen_at: Timestamp,
  updated_at: Timestamp,
});
export type PartnerEngagement = z.infer<typeof PartnerEngagement>;

export const PageCursor = pageCursor(400);

export const PartnerListQuery = z.object(pageQuery(PageCursor));
export type PartnerListQuery = z.infer<typeof PartnerListQuery>;

export const PartnerOpportunityList = pageOf(PartnerOpportunity, PageCursor);
export const PartnerEngagementList = pageOf(PartnerEngagement, PageCursor);
