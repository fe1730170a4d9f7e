import assert from "node:assert/strict";
import {
  CancelChangeSetCommand,
  DescribeChangeSetCommand,
  ListChangeSetsCommand,
  ListEntitiesCommand,
  type MarketplaceCatalogClient,
  StartChangeSetCommand,
} from "@aws-sdk/client-marketplace-catalog";
import { beforeAll, describe, it } from "vitest";
import { privateOfferChanges, waitForChangeSet } from "../testing/change-sets.ts";
import { assumeConnector, catalogClient } from "../testing/clients.ts";
import { customRole } from "../testing/custom-role.ts";
import { useSandbox } from "../testing/seller-fixture.ts";
import { rejection, type SellerSession, sellerSession } from "../testing/seller-session.ts";

const Catalog = "AWSMarketplace";

describe("ListChangeSets, DescribeChangeSet and CancelChangeSet", () => {
  const sandbox = useSandbox();
  let catalog: MarketplaceCatalogClient;
  let control: string;
  let productId: string;
  let template: SellerSession;
  beforeAll(async () => {
    // The connector template grants neither ListChangeSets nor CancelChangeSet; this role does.
    const role = await customRole({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "aws-marketplace:*", Resource: "*" }],
    });
    catalog = catalogClient(
      sandbox.endpoint,
      await assumeConnector(sandbox.endpoint, "backend", role.roleArn, role.externalId),
    );
    control = `${sandbox.endpoint}/_sandbox/accounts/${role.accountId}`;
    const products = await catalog.send(new ListEntitiesCommand({ Catalog, EntityType: "SaaSProduct" }));
    productId = products.EntitySummaryList?.find((p) => p.Visibility === "Public")?.EntityId ?? "";
    template = await sellerSession(sandbox);
  });

  const start = async (name: string) =>
    (
      await catalog.send(
        new StartChangeSetCommand({ Catalog, ChangeSetName: name, ChangeSet: privateOfferChanges(productId) }),
      )
    ).ChangeSetId ?? "";

  it("lists change sets newest first, filtered by status and name, one page at a time", async () => {
    const a = await start("first");
    await waitForChangeSet(catalog, a);
    const b = await start("second");
    await waitForChangeSet(catalog, b);
    const all = await catalog.send(new ListChangeSetsCommand({ Catalog }));
    assert.deepEqual(all.ChangeSetSummaryList?.map((c) => c.ChangeSetId).slice(0, 2), [b, a]);
    const item = all.ChangeSetSummaryList?.[0];
    assert.equal(item?.Status, "SUCCEEDED");
    assert.equal(item?.EntityIdList?.length, 1);
    assert.match(item?.ChangeSetArn ?? "", /:AWSMarketplace\/ChangeSet\//);
    const named = await catalog.send(
      new ListChangeSetsCommand({ Catalog, FilterList: [{ Name: "ChangeSetName", ValueList: ["first"] }] }),
    );
    assert.deepEqual(
      named.ChangeSetSummaryList?.map((c) => c.ChangeSetId),
      [a],
    );
    const page = await catalog.send(new ListChangeSetsCommand({ Catalog, MaxResults: 1 }));
    assert.equal(page.ChangeSetSummaryList?.length, 1);
    const next = await catalog.send(new ListChangeSetsCommand({ Catalog, MaxResults: 1, NextToken: page.NextToken }));
    assert.equal(next.ChangeSetSummaryList?.[0]?.ChangeSetId, a);
    const tooMany = await rejection(catalog.send(new ListChangeSetsCommand({ Catalog, MaxResults: 21 })));
    assert.equal(tooMany.name, "ValidationException");
    for (const Name of ["Colour", "constructor"]) {
      const unknown = await rejection(
        catalog.send(new ListChangeSetsCommand({ Catalog, FilterList: [{ Name, ValueList: ["x"] }] })),
      );
      assert.equal(unknown.name, "ValidationException", Name);
    }
  });

  it("cancels a change set while it is PREPARING and refuses once it is done", async () => {
    await fetch(`${control}/timing`, { method: "PUT", body: JSON.stringify({ changeSetStepMs: 1000 }) });
    const id = await start("to cancel");
    const out = await catalog.send(new CancelChangeSetCommand({ Catalog, ChangeSetId: id }));
    assert.equal(out.ChangeSetId, id);
    const cancelled = await catalog.send(new DescribeChangeSetCommand({ Catalog, ChangeSetId: id }));
    assert.equal(cancelled.Status, "CANCELLED");
    await fetch(`${control}/timing`, { method: "PUT", body: JSON.stringify({ changeSetStepMs: 20 }) });
    const done = await start("finished");
    await waitForChangeSet(catalog, done);
    const late = await rejection(catalog.send(new CancelChangeSetCommand({ Catalog, ChangeSetId: done })));
    assert.equal(late.name, "ResourceInUseException");
  });

  it("answers ResourceNotFoundException for an unknown change set", async () => {
    const err = await rejection(
      catalog.send(new DescribeChangeSetCommand({ Catalog, ChangeSetId: "nosuchchangeset0000000000" })),
    );
    assert.equal(err.name, "ResourceNotFoundException");
  });

  it("denies ListChangeSets and CancelChangeSet to the connector template's policy", async () => {
    const list = await rejection(template.catalog.send(new ListChangeSetsCommand({ Catalog })));
    assert.equal(list.name, "AccessDeniedException");
    const cancel = await rejection(template.catalog.send(new CancelChangeSetCommand({ Catalog, ChangeSetId: "abc" })));
    assert.equal(cancel.name, "AccessDeniedException");
  });
});
