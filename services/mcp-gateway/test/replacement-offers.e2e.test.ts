import assert from "node:assert/strict";
import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import { replacementRequest } from "@flowstate/offers-svc/testing/offer-fixtures";
import { grantAgreementReads } from "@flowstate/seller-sandbox/testing/agreement-reads";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startMcpStack } from "./mcp-stack.ts";
import { signIn } from "./sign-in.ts";
import { ALL_SCOPES, callTool as call, failure, ok, restAs, sellerTenant } from "./tool-calls.ts";

/**
 * create_replacement_offer on the local stack (offers-svc behind the pipeline, the seller sandbox as
 * the seller, onboarded through the CloudFormation path), against REST for the same operation: the
 * interface's policy is refused naming what the role lacks; with the agreement reads added, the tool
 * and REST with the same Idempotency-Key name one change set, whose offer replaces the agreement.
 */
let stack: Awaited<ReturnType<typeof startMcpStack>>;
beforeAll(async () => {
  stack = await startMcpStack("mcp_rep");
});
afterAll(() => stack.close());

describe("mcp-gateway create_replacement_offer", () => {
  it("is refused as REST refuses it without the agreement reads, and with them replaces the agreement through one change set", async () => {
    const t = await sellerTenant(stack);
    const rest = restAs(stack);
    assert.equal((await rest("POST", t.base, t.owner, { role_arn: t.seller.roleArn })).status, 200);
    const { client } = await signIn(stack, t.owner, `/mcp/tenants/${t.tenantId}`, ALL_SCOPES);
    const account = async () =>
      (await (await fetch(t.seller.control)).json()) as {
        agreements: { id: string; status: string }[];
        calls: Record<string, number>;
      };
    const agreementId = (await account()).agreements.find((a) => a.status === "ACTIVE")!.id;
    const body = replacementRequest({ release: true });
    const path = `${t.base}/agreements/${agreementId}/replacement-offers`;

    const refused = failure(await call(client, "create_replacement_offer", { agreement_id: agreementId, ...body }));
    const refusedRest = await rest("POST", path, t.owner, body);
    assert.equal(refusedRest.status, 409, refusedRest.text);
    assert.equal(refused.code, "CONNECTOR_PERMISSION_MISSING");
    assert.equal(refused.code, refusedRest.json.code);
    assert.deepEqual(refusedRest.json.missing_permissions, [
      "aws-marketplace:DescribeAgreement",
      "aws-marketplace:GetAgreementTerms",
    ]);
    assert.equal((await account()).calls["StartChangeSet"] ?? 0, 0, "nothing was submitted");

    // The seller adds the statement; the same call goes through, once per Idempotency-Key.
    await grantAgreementReads(t.seller.control.split("/_sandbox/")[0]!, t.seller.roleArn);
    const key = `mcp-replace-${t.tenantId}`;
    const handle = ok(
      await call(client, "create_replacement_offer", { agreement_id: agreementId, ...body, idempotency_key: key }),
    );
    const viaRest = await rest("POST", path, t.owner, body, { "idempotency-key": key });
    assert.equal(viaRest.status, 202, viaRest.text);
    assert.equal(viaRest.json.change_set_id, handle.change_set_id);

    let change: OfferChange | undefined;
    for (let i = 0; i < 240; i++) {
      change = ok(
        await call(client, "get_offer_change_status", { change_set_id: handle.change_set_id }),
      ) as OfferChange;
      if (["succeeded", "failed", "cancelled"].includes(change.status)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(change?.status, "succeeded", JSON.stringify(change));
    const offer = ok(await call(client, "get_private_offer", { offer_id: change!.offer_id })) as { state: string };
    assert.equal(offer.state, "released");
    const accepted = await fetch(`${t.seller.control}/agreements`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offerId: change!.offer_id }),
    });
    assert.equal(accepted.status, 201);
    assert.equal((await account()).agreements.find((a) => a.id === agreementId)?.status, "REPLACED");
    await client.close();
  });
});
