/**
 * Partner Central events with the shapes of AWS's documentation (EventBridge event reference and
 * the Partner Central developer guide's examples, see partner-central-events.md), as a rule's SQS
 * target receives them. `account` is the seller account the tenant forwards from.
 */
export function partnerEvent(
  detailType: string,
  detail: Record<string, unknown>,
  options: { account: string; id?: string; time?: string },
) {
  const opportunity = detailType.startsWith("Opportunity ");
  return {
    version: opportunity ? "1" : "0",
    id: options.id ?? crypto.randomUUID(),
    "detail-type": detailType,
    source: "aws.partnercentral-selling",
    account: options.account,
    time: options.time ?? "2026-11-23T10:00:00Z",
    region: "us-east-1",
    ...(opportunity ? {} : { resources: [] }),
    detail,
  };
}

export const opportunityDetail = (id: string, catalog = "AWS") => ({
  schemaVersion: "1",
  catalog,
  opportunity: { identifier: id },
});

export const invitationDetail = (invitationId: string, engagementId: string) => ({
  catalog: "AWS",
  engagementInvitation: {
    arn: `arn:aws:partnercentral:us-east-1::catalog/AWS/engagement-invitation/${invitationId}`,
    id: invitationId,
    engagementId,
    senderAccountId: "999999999999",
    receiverAccountId: "222222222222",
    senderCompanyName: "Example Partner GmbH",
    expirationDate: "2026-12-08T10:00:00Z",
    participantType: "Receiver",
    payloadType: "OpportunityInvitation",
  },
});

export const memberAddedDetail = (engagementId: string) => ({
  catalog: "AWS",
  engagement: { id: engagementId },
  engagementMember: { accountId: "999999999999", companyName: "Example Partner GmbH" },
});

export const snapshotDetail = (engagementId: string, opportunityId: string) => ({
  catalog: "AWS",
  resourceSnapshot: {
    arn: `arn:aws:partnercentral-selling:us-east-1::catalog/AWS/engagement/${engagementId}/resource/Opportunity/${opportunityId}/template/OpportunitySummaryView/snapshot/1`,
    engagementId,
    resourceType: "Opportunity",
    resourceId: opportunityId,
    createdBy: "222222222222",
    targetMemberAccounts: ["222222222222", "aws"],
    resourceSnapshotTemplateName: "OpportunitySummaryView",
  },
});
