import { marketplaceArn } from "../http/authorize.ts";
import { isoSeconds } from "../seller/clock.ts";
import type { ChangeSet } from "../seller/types.ts";

/** DescribeChangeSet's answer; each change echoes Details or DetailsDocument as it was sent. */
export function describeView(account: string, cs: ChangeSet) {
  return {
    ChangeSetId: cs.id,
    ChangeSetArn: marketplaceArn(account, "ChangeSet", cs.id),
    ChangeSetName: cs.name,
    Intent: cs.intent,
    StartTime: isoSeconds(cs.startTime),
    ...(cs.endTime !== undefined ? { EndTime: isoSeconds(cs.endTime) } : {}),
    Status: cs.status,
    ...(cs.failureCode ? { FailureCode: cs.failureCode, FailureDescription: cs.failureDescription } : {}),
    ChangeSet: cs.changes.map((c) => ({
      ChangeType: c.ChangeType,
      Entity: { Type: c.EntityType, Identifier: c.EntityId },
      ...(c.sentAsString ? { Details: JSON.stringify(c.Details) } : { DetailsDocument: c.Details }),
      ErrorDetailList: c.ErrorDetailList ?? [],
      ...(c.ChangeName ? { ChangeName: c.ChangeName } : {}),
    })),
  };
}

export function summaryView(account: string, cs: ChangeSet) {
  return {
    ChangeSetId: cs.id,
    ChangeSetArn: marketplaceArn(account, "ChangeSet", cs.id),
    ChangeSetName: cs.name,
    StartTime: isoSeconds(cs.startTime),
    ...(cs.endTime !== undefined ? { EndTime: isoSeconds(cs.endTime) } : {}),
    Status: cs.status,
    EntityIdList: [...new Set(cs.changes.map((c) => c.EntityId))],
    ...(cs.failureCode ? { FailureCode: cs.failureCode } : {}),
  };
}
