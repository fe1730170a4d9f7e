import assert from "node:assert/strict";
import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import { describe, it } from "vitest";
import { privacyConsumer } from "./handlers.ts";

describe("privacy-svc's consumer", () => {
  it("consumes exactly what the services catalog lists, with a handler for each type", () => {
    const declared = privacyConsumer;
    const listed = [...serviceCatalog["privacy-svc"].consumes].sort();
    assert.deepEqual(declared.events, listed);
    const handled = Object.keys(declared.handlers).map((k) => k.replace(/\.v\d+$/, ""));
    assert.deepEqual(handled.sort(), listed);
  });
});
