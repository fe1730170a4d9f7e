import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "./testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_app" });
});
afterAll(() => h.close());

describe("the offers-svc app", () => {
  it("serves exactly its registry routes, each checked against its schemas", () => {
    expectRouteContract(h.app, "offers-svc");
  });
});
