import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "./testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_app" });
});
afterAll(() => h.close());

describe("the identity-svc app", () => {
  it("serves exactly its routes of the public and internal registries, each checked against its schemas", () => {
    expectRouteContract(h.app, "identity-svc");
  });
});
