import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { doorInstance } from "./door-instance.ts";

const config = { METRICS_HOST: "127.0.0.1", METRICS_PORT: 0, DOOR_LEASE_RENEW_MS: 1_000 };

describe("a door instance's push URL", () => {
  it("names the port the internal listener got, not METRICS_PORT 0", () => {
    // Registered as port 0, every push failed: each revoking call waited out the lease and the door,
    // evicted, dropped everything it had cached (the gateway bench runs its doors with METRICS_PORT 0).
    assert.equal(doorInstance("edge-gateway", config, 43_123).pushUrl, "http://127.0.0.1:43123");
    assert.equal(doorInstance("mcp-gateway", { ...config, METRICS_PORT: 9086 }).pushUrl, "http://127.0.0.1:9086");
  });

  it("keeps DOOR_PUSH_URL when one is set", () => {
    const url = "http://10.0.1.7:9080";
    assert.equal(doorInstance("edge-gateway", { ...config, DOOR_PUSH_URL: url }, 43_123).pushUrl, url);
  });
});
