import assert from "node:assert/strict";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { describe, it } from "vitest";
import { useSellerSession } from "../testing/seller-fixture.ts";

const search = new SearchAgreementsCommand({
  catalog: "AWSMarketplace",
  filters: [
    { name: "PartyType", values: ["Proposer"] },
    { name: "AgreementType", values: ["PurchaseAgreement"] },
  ],
});
const send = (url: string, method: string, body: unknown) => fetch(url, { method, body: JSON.stringify(body) });

describe("agreements and call counts on the control plane", () => {
  const seller = useSellerSession();

  it("makes an agreement when a buyer accepts a released offer, changes its status, and counts the calls", async () => {
    const view = (await (await fetch(seller.control)).json()) as {
      offers: { id: string; state: string }[];
      calls: Record<string, number>;
    };
    const released = view.offers.find((o) => o.state === "Released");
    const draft = view.offers.find((o) => o.state === "Draft");
    assert.ok(released && draft);
    const before = (await seller.agreement.send(search)).agreementViewSummaries?.length ?? 0;

    assert.equal((await send(`${seller.control}/agreements`, "POST", { offerId: draft.id })).status, 409);
    assert.equal((await send(`${seller.control}/agreements`, "POST", { offerId: "nope" })).status, 400);
    const made = await send(`${seller.control}/agreements`, "POST", { offerId: released.id });
    assert.equal(made.status, 201);
    const agreement = (await made.json()) as { id: string; status: string };
    assert.match(agreement.id, /^agmt-[a-z0-9]{25}$/);

    const after = await seller.agreement.send(search);
    assert.equal(after.agreementViewSummaries?.length, before + 1);
    const found = after.agreementViewSummaries?.find((a) => a.agreementId === agreement.id);
    assert.equal(found?.status, "ACTIVE");
    assert.equal(found?.proposalSummary?.offerId, released.id);

    const changed = await send(`${seller.control}/agreements/${agreement.id}`, "PUT", { status: "CANCELLED" });
    assert.equal(changed.status, 200);
    const again = await seller.agreement.send(search);
    assert.equal(again.agreementViewSummaries?.find((a) => a.agreementId === agreement.id)?.status, "CANCELLED");
    assert.equal((await send(`${seller.control}/agreements/agmt-x`, "PUT", { status: "CANCELLED" })).status, 404);

    const counted = (await (await fetch(seller.control)).json()) as { calls: Record<string, number> };
    assert.equal(counted.calls["SearchAgreements"], 3, "three searches above");
    assert.ok((counted.calls["AssumeRole"] ?? 0) >= 1, "the session's AssumeRole counts on the role's account");
  });
});
