import { after, before, describe, it } from "node:test";
import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { type Harness, startHarness } from "./testing/harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness({ prefix: "id_app" });
});
after(() => h.close());

describe("the identity-svc app", () => {
  it("serves exactly its routes of the public and internal registries, each checked against its schemas", () => {
    expectRouteContract(h.app, "identity-svc");
  });
});
