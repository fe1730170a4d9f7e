import assert from "node:assert/strict";
import {
  CancelChangeSetCommand,
  DescribeChangeSetCommand,
  ListEntitiesCommand,
  type MarketplaceCatalogClient,
  StartChangeSetCommand,
} from "@aws-sdk/client-marketplace-catalog";
import { beforeAll, describe, it } from "vitest";
import { assumeConnector, catalogClient } from "../testing/clients.ts";
import { customRole } from "../testing/custom-role.ts";
import { useSandbox } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const Catalog = "AWSMarketplace";

describe("change-set calls are authorized per change, with catalog:ChangeType", () => {
  const sandbox = useSandbox();
  let catalog: MarketplaceCatalogClient;
  let offerId: string;
  beforeAll(async () => {
    const role = await customRole({
      Version: "2012-10-17",
      Statement: [
        { Effect: "Allow", Action: "aws-marketplace:*", Resource: "*" },
        {
          Effect: "Deny",
          Action: "aws-marketplace:StartChangeSet",
          Resource: "*",
          Condition: { StringEquals: { "catalog:ChangeType": "ReleaseOffer" } },
        },
        {
          Effect: "Deny",
          Action: ["aws-marketplace:DescribeChangeSet", "aws-marketplace:CancelChangeSet"],
          Resource: "arn:aws:aws-marketplace:*:*:AWSMarketplace/ChangeSet/secret*",
        },
      ],
    });
    catalog = catalogClient(
      sandbox.endpoint,
      await assumeConnector(sandbox.endpoint, "backend", role.roleArn, role.externalId),
    );
    const offers = await catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "Offer",
        EntityTypeFilters: { OfferFilters: { State: { ValueList: ["Draft"] } } },
      }),
    );
    offerId = offers.EntitySummaryList?.[0]?.EntityId ?? "";
  });

  it("denies a change set containing a change type the policy denies, and allows the others", async () => {
    const on = { Type: "Offer@1.0", Identifier: offerId };
    const denied = await rejection(
      catalog.send(
        new StartChangeSetCommand({
          Catalog,
          ChangeSet: [
            { ChangeType: "UpdateInformation", Entity: on, DetailsDocument: { Name: "ok" } },
            { ChangeType: "ReleaseOffer", Entity: on, DetailsDocument: {} },
          ],
        }),
      ),
    );
    assert.equal(denied.name, "AccessDeniedException");
    assert.match(
      denied.message,
      new RegExp(
        `aws-marketplace:StartChangeSet on resource: arn:aws:aws-marketplace:us-east-1:\\d{12}:AWSMarketplace/Offer/${offerId} with an explicit deny`,
      ),
    );
    const allowed = await catalog.send(
      new StartChangeSetCommand({
        Catalog,
        ChangeSet: [{ ChangeType: "UpdateInformation", Entity: on, DetailsDocument: { Name: "ok" } }],
      }),
    );
    assert.match(allowed.ChangeSetId ?? "", /^[a-z0-9]{25}$/);
  });

  it("checks DescribeChangeSet and CancelChangeSet against the change set's ARN before looking it up", async () => {
    const describe = await rejection(
      catalog.send(new DescribeChangeSetCommand({ Catalog, ChangeSetId: "secret-one" })),
    );
    assert.equal(describe.name, "AccessDeniedException");
    const cancel = await rejection(catalog.send(new CancelChangeSetCommand({ Catalog, ChangeSetId: "secret-two" })));
    assert.equal(cancel.name, "AccessDeniedException");
    const missing = await rejection(
      catalog.send(new CancelChangeSetCommand({ Catalog, ChangeSetId: "nosuchchangeset" })),
    );
    assert.equal(missing.name, "ResourceNotFoundException");
  });
});
