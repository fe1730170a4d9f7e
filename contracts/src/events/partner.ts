import { z } from "zod";
import { TenantId } from "../ids.ts";

/**
 * What Flowstate keeps of an AWS Partner Central Selling event (source `aws.partnercentral-selling`):
 * the metadata the partner sync needs and nothing else. Events carry identifiers, not state
 * (../reference: partner-central-events.md); company names, sender details and snapshot payloads
 * are dropped by partner-inbound before anything leaves us-east-1.
 */

/** The union of the detail types AWS documents in its two event references (they disagree). */
export const PARTNER_DETAIL_TYPES = [
  "Opportunity Created",
  "Opportunity Updated",
  "Opportunity Accepted",
  "Opportunity Rejected",
  "Engagement Invitation Created",
  "Engagement Invitation Accepted",
  "Engagement Invitation Rejected",
  "Engagement Invitation Expired",
  "Engagement Member Joined",
  "Engagement Member Added",
  "Resource Snapshot Created",
  "Engagement Resource Snapshot Created",
  "Engagement Created",
  "Engagement Updated",
] as const;
export const PartnerDetailType = z.enum(PARTNER_DETAIL_TYPES);
export type PartnerDetailType = z.infer<typeof PartnerDetailType>;

/** Invitation status moves one way: PENDING → ACCEPTED | REJECTED | EXPIRED. */
export const InvitationStatus = z.enum(["PENDING", "ACCEPTED", "REJECTED", "EXPIRED"]);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

/** An AWS identifier as the events carry it (`O123…`, `eng-…`, `engi-…`, or an ARN): no spaces or quotes. */
export const PartnerRef = z.string().regex(/^[A-Za-z0-9._:/+=@-]{1,256}$/, "expected an AWS identifier");

export const AwsAccountId = z.string().regex(/^\d{12}$/, "expected a 12-digit AWS account id");

export const PartnerEventMetadata = z.object({
  tenant_id: TenantId,
  account_id: AwsAccountId,
  /** EventBridge's event id; with the account it identifies the partner event. */
  partner_event_id: PartnerRef,
  detail_type: PartnerDetailType,
  event_time: z.iso.datetime({ offset: true }),
  catalog: z.enum(["AWS", "Sandbox"]),
  opportunity_id: PartnerRef.optional(),
  engagement_id: PartnerRef.optional(),
  invitation_id: PartnerRef.optional(),
  invitation_status: InvitationStatus.optional(),
});
export type PartnerEventMetadata = z.infer<typeof PartnerEventMetadata>;
