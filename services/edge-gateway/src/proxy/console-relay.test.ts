import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { consoleCookies } from "./console-relay.ts";

describe("the cookies relayed to the console", () => {
  it("are the console's own, every other cookie of the origin dropped", () => {
    assert.equal(
      consoleCookies(
        "a=1; __Host-flowstate-console=abc; __Host-flowstate-device=dvt_x; __Host-flowstate-console-login=s",
      ),
      "__Host-flowstate-console=abc; __Host-flowstate-console-login=s",
    );
    assert.equal(consoleCookies("__Host-flowstate-device=dvt_x; __Host-flowstate-consolex=1"), undefined);
    assert.equal(consoleCookies(undefined), undefined);
  });
});
