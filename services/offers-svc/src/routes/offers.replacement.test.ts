import assert from "node:assert/strict";
import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { grantAgreementReads } from "@flowstate/seller-sandbox/testing/agreement-reads";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { marketplace, replacementRequest } from "../testing/offer-fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_replace" });
});
afterAll(() => h.close());

type Problem = { code: string; missing_permissions?: string[]; agreement_status?: string; detail: string };
type View = {
  agreements: { id: string; offerId: string; status: string }[];
  offers: { id: string; state: string }[];
  calls: Record<string, number>;
};
const view = async (control: string) => (await (await fetch(control)).json()) as View;

describe("replacement offers (agreement-based, AWS CreateReplacementOffer)", () => {
  it("are refused before anything is submitted with the interface's and the legacy policy, naming what the role lacks", async () => {
    for (const version of ["current", "legacy"] as const) {
      const { t, seller } = await connectedTenant(h, { version });
      const agreement = (await view(seller.control)).agreements.find((a) => a.status === "ACTIVE")!;
      const res = await h.call("POST", marketplace(t.id, `agreements/${agreement.id}/replacement-offers`), {
        as: t.admin,
        body: replacementRequest(),
      });
      const problem = await answer<Problem>(res, 409);
      assert.equal(problem.code, "CONNECTOR_PERMISSION_MISSING", version);
      assert.deepEqual(problem.missing_permissions, [
        "aws-marketplace:DescribeAgreement",
        "aws-marketplace:GetAgreementTerms",
      ]);
      assert.match(problem.detail, /aws-marketplace:DescribeAgreement/);
      assert.equal((await view(seller.control)).calls["StartChangeSet"] ?? 0, 0, "nothing submitted");
    }
  });

  it("with the agreement reads granted: one change set makes a released offer to the agreement's buyer, evented as a create", async () => {
    const { t, seller } = await connectedTenant(h);
    await grantAgreementReads(h.sandbox.endpoint, seller.role.roleArn);
    const agreement = (await view(seller.control)).agreements.find((a) => a.status === "ACTIVE")!;
    const handle = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, `agreements/${agreement.id}/replacement-offers`), {
        as: t.admin,
        body: replacementRequest({ release: true }),
      }),
      202,
    );
    const change: OfferChange = await h.waitForChange(t, handle.change_set_id);
    assert.equal(change.status, "succeeded", JSON.stringify(change));
    assert.equal(change.action, "create");
    assert.match(change.offer_id ?? "", /^offer-/);
    const offer = await answer<{ state: string; buyer_accounts: string[]; name: string }>(
      await h.call("GET", marketplace(t.id, `offers/${change.offer_id}`), { as: t.member, role: "member" }),
      200,
    );
    assert.equal(offer.state, "released");
    assert.equal(offer.name, "Acme, new terms");
    assert.equal(offer.buyer_accounts.length, 1);
    // The buyer accepts: AWS replaces the old agreement.
    const accepted = await fetch(`${seller.control}/agreements`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offerId: change.offer_id }),
    });
    assert.equal(accepted.status, 201);
    assert.equal((await view(seller.control)).agreements.find((a) => a.id === agreement.id)?.status, "REPLACED");
    const succeeded = await outboxEvents(h, t.id, "OfferChangeSucceeded.v2");
    assert.equal(succeeded.at(-1)?.envelope.data["offer_id"], change.offer_id);
  });

  it("refuses an agreement that is not active (409) and one that is not the seller's (404), before submitting", async () => {
    const { t, seller } = await connectedTenant(h);
    await grantAgreementReads(h.sandbox.endpoint, seller.role.roleArn);
    const ended = (await view(seller.control)).agreements.find((a) => a.status !== "ACTIVE")!;
    const notActive = await answer<Problem>(
      await h.call("POST", marketplace(t.id, `agreements/${ended.id}/replacement-offers`), {
        as: t.admin,
        body: replacementRequest(),
      }),
      409,
    );
    assert.equal(notActive.code, "AGREEMENT_NOT_ACTIVE");
    assert.equal(notActive.agreement_status, ended.status.toLowerCase());

    const other = await connectedTenant(h);
    const foreign = (await view(other.seller.control)).agreements.find((a) => a.status === "ACTIVE")!;
    const missing = await h.call("POST", marketplace(t.id, `agreements/${foreign.id}/replacement-offers`), {
      as: t.admin,
      body: replacementRequest(),
    });
    assert.equal((await answer<Problem>(missing, 404)).code, "NOT_FOUND");
    assert.equal((await view(seller.control)).calls["StartChangeSet"] ?? 0, 0, "nothing submitted");

    // A member may read but not replace; a body without pricing is a 400 with field errors.
    const member = await h.call("POST", marketplace(t.id, `agreements/${ended.id}/replacement-offers`), {
      as: t.member,
      role: "member",
      body: replacementRequest(),
    });
    assert.equal(member.status, 403);
    const { pricing: _p, ...noPricing } = replacementRequest();
    const invalid = await h.call("POST", marketplace(t.id, `agreements/${ended.id}/replacement-offers`), {
      as: t.admin,
      body: { ...noPricing, buyer_accounts: ["444455556666"] },
    });
    assert.equal(invalid.status, 400);
  });
});
