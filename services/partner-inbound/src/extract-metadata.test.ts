import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { extractMetadata } from "./extract-metadata.ts";
import { partnerDomainEventId } from "./publish.ts";
import {
  invitationDetail,
  memberAddedDetail,
  opportunityDetail,
  partnerEvent,
  snapshotDetail,
} from "./testdata/partner-events.ts";

const account = "222222222222";

describe("extractMetadata", () => {
  it("keeps an opportunity event's id, type, time and catalog", () => {
    const event = partnerEvent("Opportunity Updated", opportunityDetail("O1234567"), { account, id: "e-1" });
    assert.deepEqual(extractMetadata(event), {
      ok: true,
      value: {
        account_id: account,
        partner_event_id: "e-1",
        detail_type: "Opportunity Updated",
        event_time: "2026-11-23T10:00:00.000Z",
        catalog: "AWS",
        opportunity_id: "O1234567",
      },
    });
  });

  it("derives the invitation status from the detail type and drops company names and accounts of others", () => {
    for (const [type, status] of [
      ["Engagement Invitation Created", "PENDING"],
      ["Engagement Invitation Accepted", "ACCEPTED"],
      ["Engagement Invitation Rejected", "REJECTED"],
      ["Engagement Invitation Expired", "EXPIRED"],
    ] as const) {
      const result = extractMetadata(
        partnerEvent(type, invitationDetail("engi-v7p8z56whnauo", "eng-567a1j5hxp35lo"), { account }),
      );
      assert.ok(result.ok);
      assert.equal(result.value.invitation_status, status);
      assert.equal(result.value.engagement_id, "eng-567a1j5hxp35lo");
      assert.doesNotMatch(JSON.stringify(result.value), /Example Partner|999999999999/);
    }
  });

  it("reads engagement ids from member and snapshot events, and the snapshot's opportunity", () => {
    const member = extractMetadata(partnerEvent("Engagement Member Added", memberAddedDetail("eng-1"), { account }));
    assert.ok(member.ok && member.value.engagement_id === "eng-1");
    assert.doesNotMatch(JSON.stringify(member), /Example Partner/);
    const snapshot = extractMetadata(
      partnerEvent("Engagement Resource Snapshot Created", snapshotDetail("eng-2", "O77"), { account }),
    );
    assert.ok(snapshot.ok);
    assert.deepEqual([snapshot.value.engagement_id, snapshot.value.opportunity_id], ["eng-2", "O77"]);
  });

  it("drops what it cannot use, naming why", () => {
    const cases: [unknown, string][] = [
      [undefined, "malformed"],
      [{ ...partnerEvent("Opportunity Updated", opportunityDetail("O1"), { account }), source: "aws.s3" }, "malformed"],
      [partnerEvent("Opportunity Updated", opportunityDetail("O1"), { account: "12" }), "malformed"],
      [partnerEvent("Opportunity Deleted", opportunityDetail("O1"), { account }), "unknown_detail_type"],
      [partnerEvent("Opportunity Updated", opportunityDetail("O1", "Staging"), { account }), "unknown_catalog"],
      [partnerEvent("Opportunity Updated", { catalog: "AWS" }, { account }), "malformed"],
      [partnerEvent("Opportunity Updated", opportunityDetail("O 1; DROP"), { account }), "malformed"],
    ];
    for (const [body, reason] of cases) assert.deepEqual(extractMetadata(body), { ok: false, reason });
  });

  it("derives one domain event id per partner event, the same on every delivery", () => {
    const m = { account_id: account, partner_event_id: "e-1", event_time: "2026-11-23T10:00:00.000Z" };
    assert.equal(partnerDomainEventId(m), partnerDomainEventId({ ...m }));
    assert.notEqual(partnerDomainEventId(m), partnerDomainEventId({ ...m, account_id: "333333333333" }));
    assert.match(partnerDomainEventId(m), /^evt_[0-9A-Za-z]{25}$/);
  });
});
