import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { consumers } from "../../../../deploy/local/consumers.ts";
import { privacyConsumer, privacySubscription } from "./handlers.ts";

describe("privacy-svc's consumer", () => {
  it("is subscribed, through the bootstrap's list, to exactly the events it has handlers for", () => {
    const declared = privacyConsumer({} as never);
    assert.deepEqual(declared.events, privacySubscription.events);
    assert.deepEqual(
      consumers.find((c) => c.service === "privacy-svc"),
      privacySubscription,
    );
    const handled = Object.keys(declared.handlers).map((k) => k.replace(/\.v\d+$/, ""));
    assert.deepEqual(handled.sort(), [...privacySubscription.events]);
  });
});
