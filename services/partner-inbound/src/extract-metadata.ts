import type { PartnerEventMetadata } from "@flowstate/contracts/events/partner";
import {
  AwsAccountId,
  type InvitationStatus,
  PartnerDetailType,
  PartnerRef,
} from "@flowstate/contracts/events/partner";
import { z } from "zod";

/**
 * An EventBridge event as a rule's SQS target receives it. Parsed leniently: AWS's examples
 * disagree on fields and casing (partner-central-events.md), so only what the sync keeps is read,
 * and the rest of `detail` (company names, snapshot payloads) is never copied anywhere.
 */
const EventBridgeEvent = z.object({
  id: PartnerRef,
  "detail-type": z.string(),
  source: z.literal("aws.partnercentral-selling"),
  account: AwsAccountId,
  time: z.iso.datetime({ offset: true }),
  detail: z.record(z.string(), z.unknown()),
});

export type Extracted = Omit<PartnerEventMetadata, "tenant_id">;
export type Rejection = "malformed" | "unknown_detail_type" | "unknown_catalog";

const INVITATION_STATUS: Record<string, InvitationStatus> = {
  "Engagement Invitation Created": "PENDING",
  "Engagement Invitation Accepted": "ACCEPTED",
  "Engagement Invitation Rejected": "REJECTED",
  "Engagement Invitation Expired": "EXPIRED",
};

const field = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined),
    value,
  );
const ref = (value: unknown): string | undefined => {
  const parsed = PartnerRef.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

/** The ids one detail type carries, read from where AWS documents them. */
function idsOf(type: PartnerDetailType, detail: Record<string, unknown>): Partial<Extracted> {
  if (type.startsWith("Opportunity ")) return { opportunity_id: ref(field(detail, "opportunity", "identifier")) };
  if (type.startsWith("Engagement Invitation ")) {
    return {
      invitation_id: ref(field(detail, "engagementInvitation", "id") ?? field(detail, "engagementInvitation", "arn")),
      engagement_id: ref(field(detail, "engagementInvitation", "engagementId")),
      invitation_status: INVITATION_STATUS[type],
    };
  }
  if (type.endsWith("Resource Snapshot Created")) {
    const snapshot = field(detail, "resourceSnapshot");
    return {
      engagement_id: ref(field(snapshot, "engagementId")),
      opportunity_id:
        field(snapshot, "resourceType") === "Opportunity" ? ref(field(snapshot, "resourceId")) : undefined,
    };
  }
  // Engagement Member Added/Joined carry engagement.id; Engagement Created/Updated engagement.engagementId.
  return { engagement_id: ref(field(detail, "engagement", "id") ?? field(detail, "engagement", "engagementId")) };
}

/** What must be present for the event to mean anything to the sync. */
const required = (type: PartnerDetailType, ids: Partial<Extracted>): boolean =>
  type.startsWith("Opportunity ")
    ? ids.opportunity_id !== undefined
    : type.startsWith("Engagement Invitation ")
      ? ids.invitation_id !== undefined
      : ids.engagement_id !== undefined || ids.opportunity_id !== undefined;

/**
 * The metadata of one Partner Central event, or why it is dropped. Never throws and never returns
 * anything from the payload beyond ids, type, time, catalog and the invitation status its type implies.
 *
 * @example
 * extractMetadata(JSON.parse(message.Body)); // { ok: true, value: { detail_type: "Opportunity Updated", opportunity_id: "O123", … } }
 */
export function extractMetadata(body: unknown): { ok: true; value: Extracted } | { ok: false; reason: Rejection } {
  const event = EventBridgeEvent.safeParse(body);
  if (!event.success) return { ok: false, reason: "malformed" };
  const type = PartnerDetailType.safeParse(event.data["detail-type"]);
  if (!type.success) return { ok: false, reason: "unknown_detail_type" };
  const catalog = event.data.detail.catalog;
  if (catalog !== "AWS" && catalog !== "Sandbox") return { ok: false, reason: "unknown_catalog" };
  const ids = idsOf(type.data, event.data.detail);
  if (!required(type.data, ids)) return { ok: false, reason: "malformed" };
  const value: Extracted = {
    account_id: event.data.account,
    partner_event_id: event.data.id,
    detail_type: type.data,
    event_time: new Date(event.data.time).toISOString(),
    catalog,
    ...Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)),
  };
  return { ok: true, value };
}
